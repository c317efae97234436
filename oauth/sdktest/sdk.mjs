// The official Node SDK (@gohighlevel/api-client, pinned in package.json)
// as a marketplace app's client against the local server: consent in a
// real browser, then everything else through the SDK itself, unchanged:
// the code exchange, a marketplace-only operation and one outside the
// app's scopes, the SDK's own refresh (30 s before expiry, and on a 401)
// with access tokens shortened to OAUTH_ACCESS_TOKEN_TTL seconds, refresh
// reuse detection, a company install with location tokens and installed
// locations, webhooks verified by the SDK's WebhookManager, and an
// uninstall that takes effect on the very next request.
//
//   make test-browser      (builds bin/devserver and bin/platformctl first)
import assert from "node:assert/strict";
import sdk from "@gohighlevel/api-client";
import {
  alpha, company, startServer, platformctl, startReceiver, launchBrowser, signIn, authorizeURL, run,
} from "../../portal/browsertest/harness.mjs";

const { HighLevel, UserType } = sdk;
// The SDK refreshes a token 30 s before it ends: 45 s leaves it 15 s of use.
const ttl = 45;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// statusOf is the HTTP status of a failed SDK call.
async function statusOf(promise) {
  try {
    await promise;
  } catch (err) {
    return err.statusCode ?? err.response?.status;
  }
  return 200;
}

// raw calls the API with a token, bypassing the SDK: what the server thinks
// of exactly that token.
async function raw(server, token, path) {
  const res = await fetch(server.base + path, { headers: { Authorization: `Bearer ${token}`, Version: "2021-07-28" } });
  await res.arrayBuffer();
  return res.status;
}

// webhookVerdict passes a received webhook through the SDK's WebhookManager
// middleware as an Express app would, with the raw body, and returns what
// it concluded.
async function webhookVerdict(ghl, hook, rawBody = hook.rawBody) {
  const req = { method: hook.method, url: hook.url, headers: hook.headers, body: rawBody, rawBody };
  await new Promise((resolve, reject) => ghl.webhooks.subscribe()(req, {}, (err) => (err ? reject(err) : resolve())));
  return req;
}

await run("sdk", async (test, watch) => {
  const server = await startServer("sdk-test", { OAUTH_ACCESS_TOKEN_TTL: String(ttl) });
  const receiver = await startReceiver();
  // The SDK's base URL is a static of the class, read by the constructor.
  HighLevel.BASE_URL = server.base;
  const publicKey = platformctl(server, "apps", "webhook-key");
  const context = await launchBrowser();
  const page = context.pages()[0] || (await context.newPage());
  watch(page);
  const scopes = "payments/integration.write contacts.readonly";
  let app, ghl, first, current;

  // consent signs in when needed and allows the app; it returns the code.
  async function consent(a, scope, state, choose) {
    await page.goto(authorizeURL(server, a, receiver.redirectURI, scope, state));
    if (page.url().includes("/portal/sign-in")) await signIn(page, server.email, server.password);
    await page.getByRole("heading", { name: /asks to be installed/ }).waitFor();
    if (choose) await choose(page);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((u) => u.href.startsWith(receiver.redirectURI));
    const back = new URL(page.url());
    assert.equal(back.searchParams.get("state"), state);
    return back.searchParams.get("code");
  }

  await test("platformctl registers an app and prints its client credentials once", async () => {
    app = JSON.parse(platformctl(server, "apps", "create", "--company", company, "--name", "Bridge Pay",
      "--redirect-uri", receiver.redirectURI, "--scopes", scopes.replace(" ", ","), "--webhook-url", receiver.webhookURL,
      "--events", "WhitelabelProviderCreate,ContactCreate"));
    assert.match(app.clientId, new RegExp(`^${app.appId}-[a-z0-9]+$`));
    assert.ok(app.clientSecret);
    ghl = new HighLevel({ clientId: app.clientId, clientSecret: app.clientSecret, webhookPublicKey: publicKey, logLevel: "none" });
  });

  // exchange trades a code for tokens through the SDK.
  function exchange(client, a, code, userType) {
    return client.oauth.getAccessToken({
      client_id: a.clientId, client_secret: a.clientSecret, grant_type: "authorization_code", code,
      redirect_uri: receiver.redirectURI, user_type: userType,
    });
  }

  await test("a code exchanged twice is refused, and what it issued is revoked", async () => {
    const code = await consent(app, scopes, "s-0");
    const tokens = await exchange(ghl, app, code, UserType.Location);
    assert.equal(await raw(server, tokens.access_token, `/contacts/?locationId=${alpha}`), 200);
    assert.equal(await statusOf(exchange(ghl, app, code, UserType.Location)), 400, "invalid_grant");
    assert.equal(await raw(server, tokens.access_token, `/contacts/?locationId=${alpha}`), 401);
  });

  await test("oauth.getAccessToken exchanges the consent's code for the public platform's fields", async () => {
    first = await exchange(ghl, app, await consent(app, scopes, "s-1"), UserType.Location);
    assert.equal(first.token_type, "Bearer");
    assert.equal(first.expires_in, ttl);
    assert.equal(first.userType, "Location");
    assert.equal(first.locationId, alpha);
    assert.equal(first.companyId, company);
    assert.deepEqual(first.scope.split(" ").sort(), scopes.split(" ").sort());
    assert.match(first.access_token, /^bpt_/);
    await ghl.getSessionStorage().setSession(alpha, first);
    current = first;
  });

  await test("the INSTALL webhook's signature verifies with the SDK's WebhookManager, a changed body's does not", async () => {
    const hook = await receiver.waitForHook((b) => b.type === "INSTALL" && b.appId === app.appId);
    const body = JSON.parse(hook.rawBody.toString("utf8"));
    assert.equal(body.locationId, alpha);
    assert.equal(body.companyId, company);
    assert.equal((await webhookVerdict(ghl, hook)).isSignatureValid, true);
    const forged = Buffer.from(hook.rawBody.toString("utf8").replace(alpha, "demoLocBravo00000002"));
    assert.equal((await webhookVerdict(ghl, hook, forged)).isSignatureValid, false);
  });

  await test("the token creates a white-label provider (marketplace only) and is refused outside its scopes", async () => {
    const provider = await ghl.payments.createIntegrationProvider(
      { altId: alpha, altType: "account", uniqueName: "bridge-pay", title: "Bridge Pay", provider: "nmi",
        // U+2028 and U+2029, which Go's JSON escapes and JSON.stringify does not.
        description: "Card payments\u2028through the bridge\u2029", imageUrl: "https://assets.example.com/bridge.png" },
      { headers: { "x-location-id": alpha } }, // how the SDK picks the session for a body without locationId
    );
    assert.equal(provider.altId, alpha);
    assert.equal(provider.title, "Bridge Pay");
    assert.equal(await statusOf(ghl.campaigns.getCampaigns({ locationId: alpha })), 403, "campaigns.readonly is not the app's");
  });

  await test("the provider's WhitelabelProviderCreate event reaches the app, once, and verifies with the SDK's WebhookManager", async () => {
    const hook = await receiver.waitForHook((b) => b.type === "WhitelabelProviderCreate" && b.title === "Bridge Pay");
    const body = JSON.parse(hook.rawBody.toString("utf8"));
    assert.equal(body.locationId, alpha);
    assert.match(body.webhookId, /^[0-9a-f]{24}$/);
    assert.equal(body.version, 1);
    assert.equal(body.description, "Card payments\u2028through the bridge\u2029");
    assert.equal((await webhookVerdict(ghl, hook)).isSignatureValid, true);
    assert.ok(!hook.rawBody.toString("utf8").includes("\\u2028"), "U+2028 sent raw, as JSON.stringify writes it");
    const forged = Buffer.from(hook.rawBody.toString("utf8").replace("Bridge Pay", "Bridge Pal"));
    assert.equal((await webhookVerdict(ghl, hook, forged)).isSignatureValid, false);
    await sleep(5000); // two more deliveries' worth
    const copies = receiver.hooks.filter((h) => JSON.parse(h.rawBody.toString("utf8")).webhookId === body.webhookId);
    assert.equal(copies.length, 1, "delivered once");
  });

  await test("the SDK refreshes by itself 30 s before the token ends", async () => {
    await sleep((ttl - 30 + 1) * 1000);
    const contacts = await ghl.contacts.getContacts({ locationId: alpha, limit: 1 });
    assert.ok(Array.isArray(contacts.contacts));
    current = await ghl.getSessionStorage().getSession(alpha);
    assert.notEqual(current.access_token, first.access_token, "a new pair");
    assert.notEqual(current.refresh_token, first.refresh_token);
  });

  await test("an ended token answers 401 and the SDK refreshes on it and retries", async () => {
    // The session claims a day left, so only the 401 can tell the SDK.
    await ghl.getSessionStorage().setSession(alpha, { ...current, expires_in: 86399 });
    await sleep(ttl * 1000);
    assert.equal(await raw(server, current.access_token, `/contacts/?locationId=${alpha}`), 401, "refused once past its end");
    const contacts = await ghl.contacts.getContacts({ locationId: alpha, limit: 1 });
    assert.ok(Array.isArray(contacts.contacts));
    const after = await ghl.getSessionStorage().getSession(alpha);
    assert.notEqual(after.access_token, current.access_token);
    current = after;
  });

  await test("a used refresh token presented again revokes every token of the install", async () => {
    assert.equal(await raw(server, current.access_token, `/contacts/?locationId=${alpha}`), 200);
    const reuse = ghl.oauth.refreshToken(first.refresh_token, app.clientId, app.clientSecret, "refresh_token", UserType.Location);
    assert.equal(await statusOf(reuse), 400, "invalid_grant");
    assert.equal(await raw(server, current.access_token, `/contacts/?locationId=${alpha}`), 401, "the live pair is revoked too");
    const refreshAfter = ghl.oauth.refreshToken(current.refresh_token, app.clientId, app.clientSecret, "refresh_token", UserType.Location);
    assert.equal(await statusOf(refreshAfter), 400);
  });

  await test("uninstalling in the portal takes effect on the very next request, and the UNINSTALL webhook clears the SDK's session", async () => {
    const tokens = await exchange(ghl, app, await consent(app, scopes, "s-2"), UserType.Location);
    await ghl.getSessionStorage().setSession(alpha, tokens);
    await ghl.contacts.getContacts({ locationId: alpha, limit: 1 });

    await page.goto(`${server.base}/portal/accounts/${alpha}`);
    await page.getByRole("button", { name: "Uninstall Bridge Pay" }).click();
    await page.getByRole("button", { name: "Uninstall app" }).click();
    await page.getByRole("status").waitFor();
    assert.equal(await statusOf(ghl.contacts.getContacts({ locationId: alpha, limit: 1 })), 401, "and the SDK's refresh is refused");

    const hook = await receiver.waitForHook((b) => b.type === "UNINSTALL" && b.appId === app.appId);
    const verdict = await webhookVerdict(ghl, hook);
    assert.equal(verdict.isSignatureValid, true);
    assert.equal(await ghl.getSessionStorage().getSession(alpha), null, "the SDK dropped the account's session");
  });

  await test("a company install: location tokens, installed locations, and the INSTALL webhook fetching the account's token", async () => {
    const companyApp = JSON.parse(platformctl(server, "apps", "create", "--company", company, "--name", "Agency Bridge",
      "--redirect-uri", receiver.redirectURI, "--scopes", "contacts.readonly,oauth.write,oauth.readonly",
      "--webhook-url", receiver.webhookURL, "--target", "company"));
    const agencyGhl = new HighLevel({ clientId: companyApp.clientId, clientSecret: companyApp.clientSecret, webhookPublicKey: publicKey, logLevel: "none" });
    const email = `gus.sdk.${Date.now()}@northwind.example`;
    const password = "agency admin passphrase 2026";
    platformctl(server, "users", "create", "--company", company, "--email", email, "--name", "Gus Agency", "--role", "admin", "--type", "agency");
    const link = platformctl(server, "portal", "invite", "--company", company, "--email", email);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.goto(link);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm password").fill(password);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.waitForURL(/\/portal\/sign-in/);

    await page.goto(authorizeURL(server, companyApp, receiver.redirectURI, "contacts.readonly oauth.write oauth.readonly", "c-1"));
    await signIn(page, email, password);
    await page.getByRole("heading", { name: /asks to be installed/ }).waitFor();
    await page.getByRole("checkbox", { name: new RegExp(alpha) }).check();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((u) => u.href.startsWith(receiver.redirectURI));
    const code = new URL(page.url()).searchParams.get("code");

    const companyTokens = await exchange(agencyGhl, companyApp, code, UserType.Company);
    assert.equal(companyTokens.userType, "Company");
    assert.equal(companyTokens.companyId, company);
    assert.deepEqual(companyTokens.approvedLocations, [alpha]);
    await agencyGhl.getSessionStorage().setSession(company, companyTokens);

    const installed = await agencyGhl.oauth.getInstalledLocation({ companyId: company, appId: companyApp.appId, isInstalled: true });
    assert.deepEqual(installed.locations.map((l) => l._id), [alpha]);

    const location = await agencyGhl.oauth.getLocationAccessToken({ companyId: company, locationId: alpha });
    assert.equal(location.locationId, alpha);
    assert.equal(await raw(server, location.access_token, `/contacts/?locationId=${alpha}`), 200);

    // The SDK's WebhookManager answers an INSTALL of a company install by
    // asking /oauth/locationToken for the account's token and keeping it.
    const hook = await receiver.waitForHook((b) => b.type === "INSTALL" && b.appId === companyApp.appId && b.locationId === alpha);
    const verdict = await webhookVerdict(agencyGhl, hook);
    assert.equal(verdict.isSignatureValid, true);
    assert.equal(verdict.installTokenError, undefined);
    const kept = await agencyGhl.getSessionStorage().getSession(alpha);
    assert.match(kept.access_token, /^bpt_/);
    const contacts = await agencyGhl.contacts.getContacts({ locationId: alpha, limit: 1 });
    assert.ok(Array.isArray(contacts.contacts));
  });

  await test("no client secret, code or token appears in the server's log", async () => {
    const text = server.logs.join("\n");
    assert.ok(!text.includes(app.clientSecret), "the client secret");
    assert.ok(!/bpt_[A-Za-z0-9]{20,}/.test(text), "a token");
    assert.ok(!/code=[A-Za-z0-9_-]{20,}/.test(text), "a code");
  });
});
