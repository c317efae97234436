// The webhooks pages in a real browser: an admin adds an endpoint (a
// private host refused beside the URL first), edits its event types,
// disables and enables it, opens its deliveries (seeded in the table:
// delivered, failed and pending ones), redelivers one (the local server's
// deliverer sends it to the receiver) and every failed one since a time,
// redelivers with platformctl too, sees a failing endpoint's health on the
// list and its page, retries a waiting delivery now and sends a test
// event, sees the notice of an endpoint disabled
// after 3 days of failures and enables it, and removes an endpoint. Each
// page is checked with axe-core and for fitting the screen at 390, 768,
// 1024, 1180, 1280 and 1440 px (actionsInView, or everyWidth for the
// forms), with screenshots in .local/portal/webhooks-*.png. Run by make
// test-browser.
//
// A receiver written from the page alone: the test copies the public key
// and the endpoint's signing secret (shown once) from the pages and checks
// real deliveries with the Node code the page shows (portal/receiver/
// verify.js, through the standardwebhooks package), before and during a
// rotation of the secret, and sees a replay refused.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { accessible, actionsInView, alpha, everyWidth, launchBrowser, platformctl, run, signIn, startReceiver, startServer } from "./harness.mjs";

const { deliveryVerifier } = createRequire(import.meta.url)("../receiver/verify.js");

// verdict is what the page's Node code says of a received delivery.
function verdict(publicKeyPem, secret, hook) {
  try {
    deliveryVerifier(publicKeyPem, secret)(hook.rawBody, hook.headers);
    return "ok";
  } catch (e) {
    return e.message;
  }
}

// ddb calls DynamoDB Local's API (the local engine takes any signature):
// the test writes what the deliverer would have, as the Go tests do.
async function ddb(server, action, body) {
  const res = await fetch(server.engine, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.0",
      "X-Amz-Target": `DynamoDB_20120810.${action}`,
      "X-Amz-Date": "20260101T000000Z",
      Authorization: "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00",
    },
    body: JSON.stringify({ TableName: server.table, ...body }),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `${action}: ${text}`);
  return JSON.parse(text);
}

const stamp = (t) => t.toISOString(); // 2026-06-15T12:00:00.000Z, clock.Timestamp's layout
const minute = (t) => t.toISOString().slice(0, 16); // a datetime-local field's value, UTC

// seedDelivery writes a delivery of the endpoint made at, in status, with
// attempts answered answer (none for a pending one not tried yet).
async function seedDelivery(server, endpoint, n, status, at, answer) {
  const id = `c${String(n).padStart(23, "0")}`;
  const body = JSON.stringify({ type: "TaskDelete", locationId: alpha, id: `task${n}`, contactId: "demoCtcAlpha00000002", webhookId: id, timestamp: stamp(at), version: 1 });
  const attempts = answer ? [{ M: { at: { S: stamp(at) }, status: { N: String(answer) } } }, { M: { at: { S: stamp(at) }, status: { N: String(answer) } } }] : [];
  const item = {
    PK: { S: `WEBHOOKS#${endpoint.id}` }, SK: { S: `EVENT#${stamp(at)}#${id}` },
    eventId: { S: id }, endpointId: { S: endpoint.id }, accountId: { S: alpha }, type: { S: "TaskDelete" }, url: { S: endpoint.url }, body: { S: body },
    createdAt: { S: stamp(at) }, status: { S: status }, attempts: { L: attempts },
  };
  if (status === "pending") item.nextAttemptAt = { S: stamp(new Date(at.getTime() + 3600e3)) };
  await ddb(server, "PutItem", { Item: item });
  return id;
}

await run("webhooks", async (test, watch) => {
  const server = await startServer("portal-webhooks");
  const receiver = await startReceiver();
  const context = await launchBrowser({ width: 1280, height: 900 });
  const page = context.pages()[0] || (await context.newPage());
  watch(page);
  // Console errors, but for the refused form's 422, which the test asks
  // for; and any other answer of 404 (a missing asset, an icon). The
  // harness fails each step on a console error as well.
  const consoleErrors = [];
  page.on("console", (msg) => {
    const at = msg.location().url || "";
    if (msg.type() === "error" && !/status of 422/.test(msg.text())) consoleErrors.push(`${msg.text()} (${at})`);
  });
  page.on("response", (res) => {
    if (res.status() === 404) consoleErrors.push(`404 ${res.url()}`);
  });
  const url = receiver.webhookURL;
  const made = {};

  await test("the API settings page leads to the webhooks page", async () => {
    await page.goto(server.base + "/portal/sign-in");
    await signIn(page, server.email, server.password);
    await page.goto(`${server.base}/portal/accounts/${alpha}`);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByText("This account has no webhook endpoint.").waitFor();
  });

  await test("a URL on a private host is refused beside its field, keeping what was entered", async () => {
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("heading", { name: "Add a webhook endpoint" }).waitFor();
    await page.getByLabel("URL").fill("http://10.0.0.1/in");
    await page.getByLabel("Description").fill("CRM sync");
    await page.getByLabel("TaskDelete").check();
    await everyWidth(page, "webhooks-add-form");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("alert").waitFor();
    assert.equal(await page.getByLabel("URL").getAttribute("aria-invalid"), "true");
    const said = await page.locator("#url-error").innerText();
    assert.match(said, /https/, said);
    assert.equal(await page.getByLabel("URL").inputValue(), "http://10.0.0.1/in");
    assert.equal(await page.getByLabel("Description").inputValue(), "CRM sync");
    assert.ok(await page.getByLabel("TaskDelete").isChecked(), "the type ticked stays ticked");
    await everyWidth(page, "webhooks-refused");
  });

  await test("an endpoint on the local receiver is added, its signing secret shown once, and listed", async () => {
    await page.getByLabel("URL").fill(url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("heading", { name: "The endpoint's signing secret" }).waitFor();
    await page.getByText("Copy it now: this is the only time it is shown.").waitFor();
    made.secret = await page.getByLabel("Signing secret").inputValue();
    assert.match(made.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    await everyWidth(page, "webhooks-secret");
    const shownAt = page.url();
    await page.getByRole("link", { name: "Done: back to webhooks" }).click();
    await page.getByText(`The endpoint ${url} is added`).waitFor();
    const again = await page.request.get(shownAt);
    assert.equal(again.status(), 410, "shown once");
    assert.ok(!(await again.text()).includes(made.secret.slice(6)), "never again");
    const row = page.getByRole("row", { name: new RegExp(url) });
    await row.getByText("TaskDelete").waitFor();
    await row.getByText("Enabled", { exact: true }).waitFor();
    made.endpoint = { id: await row.getAttribute("data-webhook-id"), url };
    assert.match(made.endpoint.id, /^[0-9a-f]{24}$/);
  });

  await test("the page says how to verify a delivery: the public key to copy, the headers, the receiver's code", async () => {
    const verify = page.getByRole("region", { name: "Verifying deliveries" });
    await verify.getByRole("heading", { name: "x-ghl-signature" }).waitFor();
    made.publicKey = await page.getByLabel(/Public key \(PEM\)/).inputValue();
    assert.match(made.publicKey, /^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n$/);
    assert.equal(made.publicKey.trim(), platformctl(server, "webhooks", "key"), "the key platformctl webhooks key prints");
    for (const summary of ["Node.js, with the standardwebhooks package", "Go, with the standard library"]) {
      await verify.getByText(summary).click();
    }
    await verify.getByRole("region", { name: "Node.js receiver code" }).getByText('require("standardwebhooks")').waitFor();
    await verify.getByRole("region", { name: "Go receiver code" }).getByText("func (v *Verifier) Verify(").waitFor();
    await everyWidth(page, "webhooks-verify");
  });

  await test("its event types are edited", async () => {
    await page.getByRole("button", { name: `Edit ${url}` }).click();
    await page.getByRole("heading", { name: "Edit webhook endpoint" }).waitFor();
    await page.getByLabel("CouponDelete").check();
    await everyWidth(page, "webhooks-edit-form");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText(`The endpoint ${url} is saved.`).waitFor();
    const types = await page.getByRole("row", { name: new RegExp(url) }).locator("ul.event-types li").allInnerTexts();
    assert.deepEqual(types, ["TaskDelete", "CouponDelete"]);
  });

  await test("it is disabled, then enabled", async () => {
    await page.getByRole("button", { name: `Disable ${url}` }).click();
    await page.getByText(`The endpoint ${url} is disabled`).waitFor();
    await page.getByRole("row", { name: new RegExp(url) }).getByText("Disabled by an admin").waitFor();
    await page.getByRole("button", { name: `Enable ${url}` }).click();
    await page.getByText(`The endpoint ${url} is enabled`).waitFor();
    await page.getByRole("row", { name: new RegExp(url) }).getByText("Enabled", { exact: true }).waitFor();
  });

  await test("an endpoint the deliverer disabled after 3 days of failures shows a notice saying what to do", async () => {
    const down = `${url}/down`;
    const added = JSON.parse(platformctl(server, "webhooks", "add", "--account", alpha, "--url", down, "--events", "TaskDelete", "--description", "Old ERP bridge"));
    const now = Date.now();
    // What the deliverer writes when it disables an endpoint.
    await ddb(server, "UpdateItem", {
      Key: { PK: { S: `ACCOUNT#${alpha}` }, SK: { S: `WEBHOOK#${added.id}` } },
      UpdateExpression: "SET enabled = :f, disabledReason = :r, disabledAt = :at, failingSince = :since",
      ExpressionAttributeValues: { ":f": { BOOL: false }, ":r": { S: "failing" }, ":at": { S: stamp(new Date(now)) }, ":since": { S: stamp(new Date(now - 72 * 3600e3)) } },
    });
    made.down = { id: added.id, url: down };
    await page.reload();
    const notice = page.getByRole("note", { name: `${down} was disabled after 3 days of failures` });
    await notice.getByText("Fix the receiver", { exact: false }).waitFor();
    await page.getByRole("row", { name: new RegExp(`${down} Old ERP bridge`) }).getByText("Disabled after 3 days of failures").waitFor();
    await actionsInView(page, "webhooks-list", 8);
  });

  await test("the deliveries are listed newest first, with each answer and a Redeliver button", async () => {
    const now = new Date();
    const e = made.endpoint;
    made.delivered = [];
    for (let i = 0; i < 3; i++) made.delivered.push(await seedDelivery(server, e, i + 1, "delivered", new Date(now - (30 - i) * 60e3), 200));
    made.oldFailed = await seedDelivery(server, e, 4, "failed", new Date(now - 5 * 24 * 3600e3), 500);
    made.newFailed = await seedDelivery(server, e, 5, "failed", new Date(now - 24 * 3600e3), 503);
    made.pending = await seedDelivery(server, e, 6, "pending", new Date(now - 60e3), 0);
    await page.getByRole("button", { name: `Deliveries of ${url}`, exact: true }).click();
    await page.getByRole("heading", { name: "Deliveries" }).waitFor();
    const ids = await page.locator("table.deliveries tbody tr").evaluateAll((rows) => rows.map((r) => r.dataset.eventId));
    assert.deepEqual(ids, [made.pending, ...made.delivered.slice().reverse(), made.newFailed, made.oldFailed], "newest first");
    const failedRow = page.getByRole("row", { name: new RegExp(made.newFailed) });
    await failedRow.getByText("503 Service Unavailable").waitFor();
    await page.getByRole("row", { name: new RegExp(made.pending) }).getByText("Not tried yet").waitFor();
    assert.equal(await page.getByRole("button", { name: new RegExp(`Redeliver TaskDelete ${made.pending}`) }).count(), 0, "a pending delivery is not redelivered");
    await actionsInView(page, "webhooks-deliveries", 5);
  });

  await test("a status filter lists that status only", async () => {
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/status=failed/);
    const statuses = await page.locator("table.deliveries tbody .status").allInnerTexts();
    assert.deepEqual(statuses, ["failed", "failed"]);
    await page.getByLabel("Status").selectOption("");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL((u) => !/status=failed/.test(u.search));
  });

  await test("one delivery is redelivered, and the page's own Node code verifies it with what the pages showed", async () => {
    const id = made.delivered[0];
    await page.getByRole("button", { name: `Redeliver TaskDelete ${id}` }).click();
    await page.getByText(`The delivery ${id} is queued again`).waitFor();
    const hook = await receiver.waitForHook((b) => b.webhookId === id);
    assert.equal(hook.headers["webhook-id"], id, "the event's webhookId");
    assert.equal(verdict(made.publicKey, made.secret, hook), "ok");
    const changed = { ...hook, rawBody: Buffer.from(hook.rawBody.toString("utf8").replace(alpha, "demoLocBravo00000002")) };
    assert.match(verdict(made.publicKey, made.secret, changed), /x-ghl-signature does not verify/);
    const unsigned = { ...hook, headers: { ...hook.headers, "x-ghl-signature": hook.headers["x-ghl-signature"] } };
    delete unsigned.headers["webhook-signature"];
    assert.match(verdict(made.publicKey, made.secret, unsigned), /Missing required headers/);
    // The same request replayed six minutes later: the library refuses it.
    const now = Date.now;
    Date.now = () => now() + 6 * 60e3;
    try {
      assert.match(verdict(made.publicKey, made.secret, hook), /too old/);
    } finally {
      Date.now = now;
    }
    made.firstHook = hook;
  });

  await test("the signing secret is rotated keeping the old one: a delivery then verifies with either", async () => {
    await page.goto(`${server.base}/portal/accounts/${alpha}/webhooks`);
    await page.getByRole("button", { name: `Rotate signing secret of ${url}`, exact: true }).click();
    await page.getByRole("heading", { name: "Rotate signing secret" }).waitFor();
    assert.ok(await page.getByLabel(/Keep it signing beside the new one for 24 hours/).isChecked(), "keeping it is the default");
    await everyWidth(page, "webhooks-rotate");
    await page.getByRole("button", { name: "Rotate signing secret" }).click();
    await page.getByRole("heading", { name: "The endpoint's new signing secret" }).waitFor();
    await page.getByText(/until then a delivery carries two signatures/).waitFor();
    const rotated = await page.getByLabel("Signing secret").inputValue();
    assert.notEqual(rotated, made.secret);
    await page.getByRole("link", { name: "Done: back to webhooks" }).click();
    await page.getByText(`The endpoint ${url} has a new signing secret`).waitFor();
    await page.getByRole("row", { name: new RegExp(url) }).getByText(/the previous one signs too until/).waitFor();

    const id = made.delivered[1];
    await page.getByRole("button", { name: `Deliveries of ${url}`, exact: true }).click();
    await page.getByRole("button", { name: `Redeliver TaskDelete ${id}` }).click();
    await page.getByText(`The delivery ${id} is queued again`).waitFor();
    const hook = await receiver.waitForHook((b) => b.webhookId === id);
    assert.equal(hook.headers["webhook-signature"].split(" ").length, 2, "two signatures, space separated");
    assert.equal(verdict(made.publicKey, rotated, hook), "ok", "with the new secret");
    assert.equal(verdict(made.publicKey, made.secret, hook), "ok", "with the old one, during its grace");
    assert.match(verdict(made.publicKey, rotated, made.firstHook), /No matching signature|too old/, "what the old secret alone signed does not pass for the new one");
    made.secret = rotated;
  });

  await test("every failed delivery since a time is redelivered, saying how many", async () => {
    const since = minute(new Date(Date.now() - 2 * 24 * 3600e3));
    await page.getByLabel("Redeliver every failed delivery since (UTC)").fill(since);
    await page.getByRole("button", { name: "Redeliver failed" }).click();
    await page.getByText(/^1 failed delivery since .* is queued again/).waitFor();
    await receiver.waitForHook((b) => b.webhookId === made.newFailed);
    assert.ok(!receiver.hooks.some((h) => JSON.parse(h.rawBody).webhookId === made.oldFailed), "the one before the time is not sent");
    await everyWidth(page, "webhooks-requeued");
  });

  await test("platformctl redelivers the older failed delivery", async () => {
    const since = new Date(Date.now() - 6 * 24 * 3600e3).toISOString().replace(/\.\d+Z$/, "Z");
    const said = platformctl(server, "webhooks", "redeliver", made.endpoint.id, "--account", alpha, "--failed-since", since);
    assert.match(said, /^1 failed delivery since/);
    await receiver.waitForHook((b) => b.webhookId === made.oldFailed);
    const table = platformctl(server, "webhooks", "deliveries", made.endpoint.id, "--account", alpha, "--status", "failed");
    assert.equal(table.split("\n").length, 1, `no failed delivery is left: ${table}`);
  });

  await test("a failing endpoint says so on the list and its page, and a waiting delivery is retried now", async () => {
    const e = made.endpoint;
    const now = Date.now();
    made.waiting = await seedDelivery(server, e, 7, "pending", new Date(now), 503); // its attempts the newest
    // What the deliverer writes at an endpoint's first failed attempt.
    await ddb(server, "UpdateItem", {
      Key: { PK: { S: `ACCOUNT#${alpha}` }, SK: { S: `WEBHOOK#${e.id}` } },
      UpdateExpression: "SET failingSince = :since",
      ExpressionAttributeValues: { ":since": { S: stamp(new Date(now - 10 * 60e3)) } },
    });
    await page.goto(`${server.base}/portal/accounts/${alpha}/webhooks`);
    const row = page.getByRole("row", { name: new RegExp(`^${url} `) });
    await row.getByText("Failing", { exact: true }).waitFor();
    assert.equal(await row.getByText("Enabled", { exact: true }).count(), 0, "not a green Enabled");
    await row.getByText(/^Every attempt failed since .* unless one succeeds$/).waitFor();
    await row.getByText(/^Last success: \d{4}-/).waitFor();
    await row.getByText(/^Last answer: 503 Service Unavailable, /).waitFor();
    await actionsInView(page, "webhooks-list-health", 8);
    await page.getByRole("button", { name: `Deliveries of ${url}`, exact: true }).click();
    await page.getByRole("heading", { name: "Deliveries" }).waitFor();
    await page.locator(".endpoint-health").getByText(/^Every attempt failed since/).waitFor();
    const deliveredRow = page.getByRole("row", { name: new RegExp(made.delivered[1]) });
    await deliveredRow.getByText("Not needed: delivered").waitFor();
    assert.equal(await page.locator("table.deliveries").getByText("None", { exact: true }).count(), 0, "no row says None");
    await actionsInView(page, "webhooks-deliveries-health", 5);
    await page.getByRole("button", { name: `Retry now TaskDelete ${made.waiting}` }).click();
    await page.getByText(`The delivery ${made.waiting} is due now`).waitFor();
    const waitingRow = page.getByRole("row", { name: new RegExp(made.waiting) });
    assert.equal(await waitingRow.getByRole("button", { name: /Retry now/ }).count(), 0, "due already");
    await everyWidth(page, "webhooks-retried");
  });

  await test("Send test event: the local deliverer sends a signed ping to that endpoint alone and the page shows its answer", async () => {
    const before = receiver.hooks.length;
    await page.getByRole("button", { name: "Send test event" }).click();
    const notice = page.getByText(/^The test event [0-9a-f]{24} was delivered: the receiver answered 200 OK\.$/);
    await notice.waitFor();
    const id = (await notice.innerText()).match(/[0-9a-f]{24}/)[0];
    const hook = await receiver.waitForHook((b) => b.webhookId === id);
    assert.equal(JSON.parse(hook.rawBody).type, "WebhookTest");
    assert.ok(hook.headers["x-ghl-signature"] && hook.headers["webhook-signature"], "signed both ways, as any delivery to it");
    assert.equal(receiver.hooks.length, before + 1, "sent once, to this endpoint alone");
    await page.getByRole("row", { name: new RegExp(id) }).getByText("delivered", { exact: true }).waitFor();
    const listed = platformctl(server, "events", "list", "--account", alpha);
    assert.ok(!listed.includes(id), "not an event: GET /events does not list it");
    await everyWidth(page, "webhooks-tested");
  });

  await test("the failing endpoint is enabled from its notice", async () => {
    await page.goto(`${server.base}/portal/accounts/${alpha}/webhooks`);
    const notice = page.getByRole("note", { name: `${made.down.url} was disabled after 3 days of failures` });
    await notice.getByRole("button", { name: `Enable ${made.down.url}` }).click();
    await page.getByText(`The endpoint ${made.down.url} is enabled`).waitFor();
    assert.equal(await page.getByRole("note").count(), 0, "the notice is gone");
  });

  await test("removing asks first, then removes the endpoint", async () => {
    await page.getByRole("button", { name: `Remove ${made.down.url}` }).click();
    await page.getByRole("heading", { name: "Remove this webhook endpoint?" }).waitFor();
    await everyWidth(page, "webhooks-remove");
    await page.getByRole("button", { name: "Remove endpoint" }).click();
    await page.getByText("The endpoint is removed").waitFor();
    assert.equal(await page.getByRole("row", { name: new RegExp(made.down.url) }).count(), 0);
  });

  await test("the audit list names each change with the endpoint", async () => {
    await page.goto(`${server.base}/portal/accounts/${alpha}/audit`);
    for (const action of ["webhook added", "webhook updated", "webhook redelivered", "webhook removed"]) {
      assert.ok(await page.getByText(action, { exact: true }).count() > 0, action);
    }
    await page.getByRole("cell", { name: new RegExp(made.endpoint.id) }).first().waitFor();
    await accessible(page, "the audit list");
    assert.deepEqual(consoleErrors, [], "no console error on any page");
  });
});
