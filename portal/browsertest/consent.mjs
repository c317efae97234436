// The consent page of marketplace apps in a real browser, on a phone
// (390x844), a tablet (768, 1024) and a desktop (1280 wide): the error page
// of a link that is not the app's, sign-in and back, the consent page with
// the scopes and the events the app will receive, Cancel and Allow, and the
// app installed on the account's API settings page; axe-core on each state,
// screenshots under .local/portal/consent-<width>-*.png.
//
//   make test-browser      (builds bin/devserver and bin/platformctl first)
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  alpha, company, shots, startServer, platformctl, startReceiver, launchBrowser, accessible, signIn, authorizeURL, run, actionsInView,
} from "./harness.mjs";

const viewports = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1280, height: 860 },
];

await run("consent", async (test, watch) => {
  const server = await startServer("consent-browser");
  const receiver = await startReceiver();
  // products.readonly unlocks no operation: it is what lets the app
  // receive ShippingZoneUpdate.
  const scopes = "payments/integration.write contacts.readonly products.readonly";
  const app = JSON.parse(platformctl(server, "apps", "create", "--company", company, "--name", "Bridge Pay",
    "--redirect-uri", receiver.redirectURI, "--scopes", scopes.replaceAll(" ", ","),
    "--webhook-url", receiver.webhookURL, "--events", "TaskDelete,WhitelabelProviderCreate,ShippingZoneUpdate"));

  for (const viewport of viewports) {
    const w = viewport.width;
    const context = await launchBrowser(viewport);
    const page = context.pages()[0] || (await context.newPage());
    watch(page);
    const policyViolations = [];
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/.test(msg.text())) policyViolations.push(msg.text());
    });
    let n = 0;
    // step screenshots the state and checks it with axe-core, and that
    // nothing is wider than the screen.
    const step = async (name) => {
      n++;
      await page.screenshot({ path: join(shots, `consent-${w}-${n}-${name}.png`), fullPage: true });
      await accessible(page, `${name} at ${w} px`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${name} at ${w} px is ${overflow} px wider than the screen`);
    };

    await test(`${w} px: a link with a redirect URI the app did not register gets an error page, not a redirect`, async () => {
      const res = await page.goto(authorizeURL(server, app, "https://evil.example.com/cb", scopes, "x"));
      assert.equal(res.status(), 400);
      assert.ok(page.url().startsWith(server.base), "still on the platform");
      await page.getByRole("heading", { name: "This app cannot be installed from this link" }).waitFor();
      await step("error");
    });

    await test(`${w} px: the consent link asks to sign in first, then comes back to the consent page`, async () => {
      await page.goto(authorizeURL(server, app, receiver.redirectURI, scopes, "st-cancel"));
      await page.waitForURL(/\/portal\/sign-in/);
      await step("sign-in");
      await signIn(page, server.email, server.password);
      await page.getByRole("heading", { name: "Bridge Pay asks to be installed" }).waitFor();
    });

    await test(`${w} px: the consent page names the app, its scopes with the operations they unlock, and the account`, async () => {
      const scopesList = page.locator("ul.consent-scopes");
      await scopesList.getByText("payments/integration.write").waitFor();
      assert.match(await scopesList.textContent(), /unlocks .*CreateWhitelabelProvider|unlocks .*whitelabel/i);
      assert.equal(await page.getByRole("radio", { name: new RegExp(alpha) }).isChecked(), true, "the one account is chosen");
      await step("consent");
    });

    await test(`${w} px: the consent page lists the events the app will receive, with the scopes that carry them`, async () => {
      const scopeItems = page.getByRole("list", { name: "What it may do" }).getByRole("listitem");
      const carrier = scopeItems.filter({ hasText: "products.readonly" });
      assert.match(await carrier.innerText(), /lets it receive\s+ShippingZoneUpdate/);
      assert.doesNotMatch(await carrier.innerText(), /unlocks no operation/, "the scope that carries events does not read as useless");
      const received = page.getByRole("list", { name: "Events it will receive" }).getByRole("listitem");
      const texts = (await received.allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
      assert.deepEqual(texts, [
        "TaskDelete with contacts.readonly",
        "WhitelabelProviderCreate with payments/integration.write",
        "ShippingZoneUpdate with products.readonly",
        "INSTALL and UNINSTALL when it is installed and uninstalled, whatever the scopes",
      ]);
      assert.ok(await page.getByText(receiver.webhookURL).isVisible(), "where they are sent");
      await page.getByRole("heading", { name: "Events it will receive" }).scrollIntoViewIfNeeded();
      await step("events");
    });

    await test(`${w} px: Cancel sends the admin back to the app with access_denied`, async () => {
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.waitForURL((u) => u.href.startsWith(receiver.redirectURI));
      const back = new URL(page.url());
      assert.equal(back.searchParams.get("error"), "access_denied");
      assert.equal(back.searchParams.get("state"), "st-cancel");
      assert.equal(back.searchParams.get("code"), null);
    });

    await test(`${w} px: Allow sends a code back; once the app exchanges it, the API settings page lists the app`, async () => {
      await page.goto(authorizeURL(server, app, receiver.redirectURI, scopes, "st-allow"));
      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL((u) => u.href.startsWith(receiver.redirectURI));
      const back = new URL(page.url());
      assert.equal(back.searchParams.get("state"), "st-allow");
      // The app's server exchanges the code, as with curl in the README.
      const res = await fetch(`${server.base}/oauth/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "authorization_code", client_id: app.clientId, client_secret: app.clientSecret,
          code: back.searchParams.get("code"), redirect_uri: receiver.redirectURI, user_type: "Location" }),
      });
      assert.equal(res.status, 200, await res.text());
      await page.goto(`${server.base}/portal/accounts/${alpha}`);
      await page.getByRole("button", { name: "Uninstall Bridge Pay" }).waitFor();
      // The app's scopes read as what it can do: the marketplace-only
      // operation is one the app can call.
      await page.locator("table.installs").getByText("POST /payments/integrations/provider/whitelabel").waitFor();
      await step("installed");
    });

    if (w === 1280) {
      await test("beside an installed app and a token with a long unbroken name, every row's actions are in view at every width", async () => {
        platformctl(server, "tokens", "create", "--account", alpha, "--scopes", "contacts.readonly,medias.write,oauth.readonly",
          "--name", "https://ci.example.com/hooks/NightlyExportToTheWarehouseAndBackAgainWithRetries0123456789abcd",
          "--description", "https://wiki.example.com/" + "RunbookForTheNightlyExport".repeat(12));
        await page.goto(`${server.base}/portal/accounts/${alpha}`);
        await actionsInView(page, "consent-installed", 4);
      });
    }

    await test(`${w} px: no page broke its Content-Security-Policy`, async () => {
      assert.deepEqual(policyViolations, []);
    });
    await context.close();
  }
});
