// The portal's flows in a real browser: Debian's chromium driven by
// playwright-core (no browser is downloaded), against the local server that
// `make run` runs (bin/devserver, on a free port with its own data), with
// axe-core checking every page for serious and critical accessibility
// violations. Every step is checked at 1280 px and again at 390x844 (a
// phone): axe-core, no page wider than the screen, a screenshot of each
// (.local/portal/NN-step.png and NN-step-phone.png). The server, platformctl,
// the browser, axe-core and the runner are harness.mjs's.
//
//   make test-browser      (builds bin/devserver and bin/platformctl first)
//
// CHROMIUM overrides the browser's path (default /usr/bin/chromium).
import { join } from "node:path";
import assert from "node:assert/strict";
import { accessible, actionsInView, alpha, company, launchBrowser, notCutOff, platformctl, run, shots, startServer } from "./harness.mjs";

const charlieToken = "bpt_DemoAllScopesCharlieLocal00000043d2IwA";

// api calls the API with a token and returns the status.
async function api(server, token, path) {
  const res = await fetch(server.base + path, { headers: { Authorization: `Bearer ${token}`, Version: "2021-07-28" } });
  await res.arrayBuffer();
  return res.status;
}

const desktop = { width: 1280, height: 860 };
const phone = { width: 390, height: 844 };
// Between the two, tables are cards with their actions beside them.
const tablet = { width: 800, height: 1024 };

// fits checks that nothing makes the page wider than the screen (a table
// or a hidden text escaping its box would make it pan sideways).
async function fits(page, name, size) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= size.width, `${name} at ${size.width} px: the page is ${width} px wide, so it pans sideways`);
}

let shotCount = 0;
// step screenshots the page and checks it with axe-core, at 1280 px and
// then at 390 px, and that it fits each.
async function step(page, name) {
  shotCount++;
  const n = String(shotCount).padStart(2, "0");
  await page.screenshot({ path: join(shots, `${n}-${name}.png`), fullPage: true });
  await accessible(page, name);
  await fits(page, name, desktop);
  await page.setViewportSize(tablet);
  try {
    await accessible(page, `${name} at 800 px`);
    await fits(page, name, tablet);
  } finally {
    await page.setViewportSize(desktop);
  }
  await page.setViewportSize(phone);
  try {
    await page.screenshot({ path: join(shots, `${n}-${name}-phone.png`), fullPage: true });
    await accessible(page, `${name} at 390 px`);
    await fits(page, name, phone);
  } finally {
    await page.setViewportSize(desktop);
  }
}

// atPhoneSize runs fn with the page at 390x844.
async function atPhoneSize(page, fn) {
  await page.setViewportSize(phone);
  try {
    return await fn();
  } finally {
    await page.setViewportSize(desktop);
  }
}

// within checks that a box lies inside the viewport's width.
function within(box, size, what) {
  assert.ok(box, `${what} is shown`);
  assert.ok(box.x >= 0 && box.x + box.width <= size.width, `${what} is within the ${size.width} px screen (x ${box.x}, width ${box.width})`);
}

await run("portal", async (test, watch) => {
  const server = await startServer("portal-browser");
  const context = await launchBrowser(desktop);
  const page = context.pages()[0] || (await context.newPage());
  watch(page);
  const policyViolations = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to/.test(msg.text())) policyViolations.push(msg.text());
  });
  const email = `erin.e2e.${Date.now()}@alphadental.example`;
  const password = "correct horse battery staple";
  const settingsPath = `/portal/accounts/${alpha}`;
  let link, first, second, third, long;
  // One long unbroken name and description, as pasted URLs are.
  const longName = "https://ci.example.com/hooks/NightlyExportToTheWarehouseAndBackAgainWithRetries0123456789abcd";
  const longDescription = "https://wiki.example.com/" + "RunbookForTheNightlyExport".repeat(12);

  await test("platformctl adds an admin of Alpha and prints a one-time invite link", async () => {
    const id = platformctl(server, "users", "create", "--company", company, "--email", email, "--name", "Erin Example", "--role", "admin", "--accounts", alpha);
    assert.match(id, /^[A-Za-z0-9]{20}$/);
    // The e-mail index is eventually consistent on AWS; DynamoDB Local is immediate too.
    link = platformctl(server, "portal", "invite", "--company", company, "--email", email);
    assert.match(link, new RegExp(`^${server.base}/portal/invite/[A-Za-z0-9_-]{43}$`));
  });

  await test("the invite link sets the password once", async () => {
    await page.goto(link);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm password").fill(password);
    await step(page, "set-password");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.waitForURL(/\/portal\/sign-in\?welcome=1$/);
    await assert.doesNotReject(page.getByText("Your password is set").waitFor());
    assert.equal(await page.getByLabel("Email").inputValue(), email, "the address is filled in");
    assert.equal(await page.evaluate(() => document.activeElement.id), "password", "the password is what is left to type");
    await step(page, "password-set");
    await page.goto(link);
    await page.getByText("already been used").waitFor();
    await step(page, "invite-reused");
  });

  await test("a wrong password is refused with a plain message", async () => {
    await page.goto(server.base + "/portal/sign-in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("The email or password is incorrect.").waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.id), "problem", "the focus is on the error");
    assert.equal(await page.getByText("Nothing was changed").count(), 0, "a sign-in changes nothing anyway");
    for (const field of ["Email", "Password"]) {
      assert.equal(await page.getByLabel(field).getAttribute("aria-invalid"), "true", `${field} is marked invalid`);
      assert.equal(await page.getByLabel(field).getAttribute("aria-describedby"), "problem");
    }
    const card = await page.locator("section.card").boundingBox();
    assert.ok(Math.abs(card.x + card.width / 2 - desktop.width / 2) < 20, `the sign-in card is in the middle (x ${card.x}, width ${card.width})`);
    await step(page, "wrong-password");
  });

  await test("signing in opens the account's API settings", async () => {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(server.base + settingsPath);
    await page.getByRole("heading", { name: "API settings" }).waitFor();
    await step(page, "api-settings");
  });

  await test("someone else's account says so", async () => {
    const res = await page.goto(server.base + "/portal/accounts/demoLocCharlie000003");
    assert.equal(res.status(), 403);
    await page.getByRole("heading", { name: "You do not administer this account" }).waitFor();
    await step(page, "not-admin");
  });

  await test("generating a token with two scopes shows its value once", async () => {
    await page.goto(server.base + settingsPath);
    await page.getByRole("button", { name: "Generate new token" }).click();
    assert.equal(await page.getByLabel("contacts.readonly", { exact: true }).isChecked(), true, "contacts.readonly is suggested");
    // The scopes that unlock operations lead, each with them; the rest are
    // folded; one a private token can never use is not offered, and why.
    await page.getByRole("group", { name: "Contacts" }).getByText("unlocks GET /contacts/").waitFor();
    assert.equal(await page.locator("details.other").evaluate((d) => d.open), false, "the other scopes are folded");
    assert.equal(await page.getByLabel("payments/integration.write", { exact: true }).count(), 0, "not offered to a private token");
    await page.getByText("Not offered: payments/integration.write is of no use to a private token").waitFor();
    await page.getByLabel("Token name").fill("CI sync");
    await page.getByLabel("Description").fill("Nightly export to the warehouse");
    await page.getByLabel("medias.readonly", { exact: true }).check();
    await step(page, "generate");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByRole("heading", { name: "Your new token" }).waitFor();
    first = { value: await page.getByLabel("New token").inputValue() };
    first.id = await page.locator("dl.facts code").first().textContent();
    assert.match(first.value, /^bpt_[A-Za-z0-9]{38}$/);
    assert.ok(!page.url().includes(first.value), "the value is not in the URL");
    await page.getByRole("status").getByText('The token "CI sync" is created.').waitFor();
    // The value is set in a monospace font that the page really uses: I, l
    // and W are as wide as each other, so I and l cannot be confused.
    const widths = await page.getByLabel("New token").evaluate((el) => {
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.font = getComputedStyle(el).font;
      return ["I", "l", "W", "1"].map((c) => ctx.measureText(c).width);
    });
    assert.ok(widths.every((w) => w === widths[0]), `a monospace font (widths of I, l, W, 1: ${widths})`);
    // What the token can do, in words: its scopes with their operations.
    await page.locator("dl.facts").getByText("GET /medias/files").waitFor();
    await notCutOff(page, page.getByLabel("New token"), "the new token at 1280 px");
    await atPhoneSize(page, () => notCutOff(page, page.getByLabel("New token"), "the new token at 390 px"));
    await step(page, "new-token");
  });

  await test("the token calls the API with its scopes, and only those", async () => {
    assert.equal(await api(server, first.value, `/contacts/?locationId=${alpha}`), 200);
    assert.equal(await api(server, first.value, `/campaigns/?locationId=${alpha}`), 403, "campaigns.readonly was not chosen");
  });

  await test("reloading or going back never shows the value again", async () => {
    const res = await page.reload();
    assert.equal(res.status(), 410);
    assert.ok(!(await page.content()).includes(first.value));
    await page.getByRole("heading", { name: "Shown once already" }).waitFor();
    await step(page, "shown-once");
    await page.goBack();
    assert.ok(!(await page.content()).includes(first.value));
    await page.goto(server.base + settingsPath);
    assert.ok(!(await page.content()).includes(first.value), "the list never shows a value");
    const row = page.locator(`tr[data-token-id="${first.id}"]`);
    await row.getByText("Active").waitFor();
    assert.match(await row.locator("td").nth(2).textContent(), /\d{4}-\d\d-\d\d \d\d:\d\d UTC/, "last used, to the minute");
  });

  await test("rotating with 7 days keeps the old token working and shows when it ends", async () => {
    await page.locator(`tr[data-token-id="${first.id}"]`).getByRole("button", { name: "Rotate CI sync" }).click();
    await page.getByLabel(/Keep it working for 7 days/).check();
    const promised = (await page.getByText(/Keep it working for 7 days/).textContent()).match(/until (\d{4}-\d\d-\d\d \d\d:\d\d UTC)/)[1];
    await step(page, "rotate");
    await page.getByRole("button", { name: "Rotate token" }).click();
    second = { value: await page.getByLabel("New token").inputValue() };
    second.id = await page.locator("dl.facts code").first().textContent();
    await page.getByRole("status").getByText(`which keeps working until ${promised}`).waitFor();
    await atPhoneSize(page, () => notCutOff(page, page.getByLabel("New token"), "the rotated token at 390 px"));
    assert.notEqual(second.value, first.value);
    assert.equal(await api(server, second.value, `/contacts/?locationId=${alpha}`), 200);
    assert.equal(await api(server, first.value, `/contacts/?locationId=${alpha}`), 200, "the old one works for 7 days");
    await page.goto(server.base + settingsPath);
    await page.locator(`tr[data-token-id="${first.id}"]`).getByText(/^Expires at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/).waitFor();
    await page.locator(`tr[data-token-id="${first.id}"]`).getByText(`Replaced by ${second.id}`).waitFor();
    await page.locator(`tr[data-token-id="${second.id}"]`).getByText(`Replaces ${first.id}`).waitFor();
    await step(page, "rotated-with-grace");
  });

  await test("rotating now revokes the old token at once", async () => {
    await page.locator(`tr[data-token-id="${second.id}"]`).getByRole("button", { name: "Rotate CI sync" }).click();
    await page.getByLabel("Revoke it now").check();
    await page.getByRole("button", { name: "Rotate token" }).click();
    third = { value: await page.getByLabel("New token").inputValue() };
    third.id = await page.locator("dl.facts code").first().textContent();
    assert.equal(await api(server, second.value, `/contacts/?locationId=${alpha}`), 401);
    assert.equal(await api(server, third.value, `/contacts/?locationId=${alpha}`), 200);
  });

  await test("revoking asks first, then the API answers 401", async () => {
    await page.goto(server.base + settingsPath);
    await page.locator(`tr[data-token-id="${third.id}"]`).getByRole("button", { name: "Revoke CI sync" }).click();
    await page.getByRole("heading", { name: /Revoke “CI sync”/ }).waitFor();
    await step(page, "revoke-confirm");
    assert.equal(await api(server, third.value, `/contacts/?locationId=${alpha}`), 200, "nothing happens before the confirmation");
    await page.getByRole("button", { name: "Revoke token" }).click();
    await page.getByRole("status").getByText("is revoked").waitFor();
    assert.equal(await api(server, third.value, `/contacts/?locationId=${alpha}`), 401);
    const revokedRow = page.locator(`details.ended tr[data-token-id="${third.id}"]`);
    assert.equal(await revokedRow.isVisible(), false, "revoked tokens are folded away");
    await step(page, "revoked");
    await page.getByText("Ended tokens").click();
    await revokedRow.getByText(/^Revoked at/).waitFor();
    await step(page, "ended-tokens-open");
  });

  await test("a form's error takes the focus and marks its field", async () => {
    await page.goto(server.base + settingsPath + "/tokens/new");
    await page.getByLabel("Token name").fill("   ");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByText("Token name is required.").first().waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.id), "problem", "the focus is on the errors");
    const name = page.getByLabel("Token name");
    assert.equal(await name.getAttribute("aria-invalid"), "true");
    assert.equal(await name.getAttribute("aria-describedby"), "name-error name-hint");
    await step(page, "generate-error");
  });

  await test("a token with a long unbroken name and many scopes keeps its actions in reach, on a phone too", async () => {
    await page.goto(server.base + settingsPath + "/tokens/new");
    await page.getByLabel("Token name").fill(longName);
    await page.getByLabel("Description").fill(longDescription);
    await page.locator("details.other > summary").click();
    await page.getByLabel("accounts.agency-accounts.manage", { exact: true }).check();
    const others = page.locator("details.other input[type=checkbox]:not(:checked)");
    for (let i = 0; i < 4; i++) await others.nth(i).check();
    await step(page, "generate-long");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByRole("heading", { name: "Your new token" }).waitFor();
    long = { id: await page.locator("dl.facts code").first().textContent() };
    await step(page, "new-token-long");

    await page.getByRole("link", { name: "Done: back to API settings" }).click();
    await page.getByRole("status").getByText("is created").waitFor();
    const row = page.locator(`tr[data-token-id="${long.id}"]`);
    const revoke = row.getByRole("button", { name: `Revoke ${longName}` });
    within(await revoke.boundingBox(), desktop, "Revoke");
    // Every scope can be opened, and a hyphenated part stays on one line.
    // Its one scope that unlocks an operation is in view with it; the five
    // that unlock none here are folded and counted.
    await row.getByText("GET /contacts/").waitFor();
    const more = row.locator("details.more-scopes > summary");
    assert.match(await more.textContent(), /^and 5 more scopes of .*\(5 unlock no operation here\)$/);
    await more.click();
    const agency = row.locator("code.scope", { hasText: "agency-accounts" });
    await agency.waitFor();
    assert.equal(await agency.textContent(), "accounts.agency-accounts.manage", "copied, the scope is itself");
    const lines = await agency.locator(".seg", { hasText: "agency-accounts" }).evaluate((el) => el.getClientRects().length);
    assert.equal(lines, 1, "agency-accounts is not broken at its hyphen");
    await step(page, "api-settings-long");

    await atPhoneSize(page, async () => {
      assert.equal(await row.evaluate((el) => getComputedStyle(el).display), "block", "each token is a card");
      const card = await row.boundingBox();
      within(card, phone, "the token's card");
      for (const [what, loc] of [["its name", row.locator(".token-name")], ["its status", row.locator(".status")], ["Revoke", revoke],
        ["Rotate", row.getByRole("button", { name: `Rotate ${longName}` })], ["Edit", row.getByRole("button", { name: `Edit ${longName}` })]]) {
        const box = await loc.boundingBox();
        within(box, phone, what);
        assert.ok(box.y >= card.y && box.y + box.height <= card.y + card.height + 1, `${what} is in the token's card`);
      }
      await fits(page, "API settings with a long name", phone);
    });
    // Every row's Edit, Rotate and Revoke, the ended tokens' too, at every
    // width from a phone to a wide desktop.
    await actionsInView(page, "api-settings-long", 5);
  });

  await test("a token's name and description can be edited, with a notice", async () => {
    await page.locator(`tr[data-token-id="${long.id}"]`).getByRole("button", { name: `Edit ${longName}` }).click();
    await page.getByRole("heading", { name: /^Edit/ }).waitFor();
    assert.equal(await page.getByLabel("Token name").inputValue(), longName);
    await step(page, "edit");
    await page.getByLabel("Token name").fill("Warehouse export");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText('The token "Warehouse export" is saved').waitFor();
    await page.locator(`tr[data-token-id="${long.id}"] .token-name`).getByText("Warehouse export", { exact: true }).waitFor();
    await step(page, "edited");
  });

  await test("another account's token id is treated as one that does not exist", async () => {
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    const res = await page.request.post(`${server.base}/portal/accounts/${alpha}/tokens/tok_demo_charlie/revoke`, {
      form: { csrf }, headers: { Origin: server.base }, maxRedirects: 0,
    });
    assert.equal(res.status(), 404);
    assert.match(await res.text(), /has no token with that id, so nothing was changed/);
    const unknown = await page.request.post(`${server.base}/portal/accounts/${alpha}/tokens/tok_doesNotExist0000/revoke`, {
      form: { csrf }, headers: { Origin: server.base }, maxRedirects: 0,
    });
    assert.equal(unknown.status(), 404);
    assert.equal(await api(server, charlieToken, "/contacts/?locationId=demoLocCharlie000003"), 200, "Charlie's token still works");
  });

  await test("the audit list names who did what, without values", async () => {
    await page.getByRole("link", { name: "Audit list" }).click();
    const rows = page.locator("table.audit tbody tr", { hasText: "CI sync" });
    assert.equal(await rows.count(), 5, "created, rotated, rotated, revoked (the rotation's revoke), revoked");
    const text = await page.locator("table.audit").textContent();
    assert.match(text, /Erin Example/);
    for (const t of [first, second, third]) assert.ok(!text.includes(t.value));
    await step(page, "audit");
  });

  await test("signing out ends the session, and a deep link survives signing in again", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("You have signed out.").waitFor();
    await step(page, "signed-out");
    await page.goto(server.base + settingsPath + "/audit");
    await page.waitForURL(/\/portal\/sign-in\?next=/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(server.base + settingsPath + "/audit");
    await page.getByRole("heading", { name: "Audit list" }).waitFor();
  });

  await test("the API reference at /docs renders the document with no console error", async () => {
    const errors = [];
    const onConsole = (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    };
    const onError = (err) => errors.push(String(err));
    page.on("console", onConsole);
    page.on("pageerror", onError);
    try {
      const res = await page.goto(server.base + "/docs");
      assert.equal(res.status(), 200, "make test installs the Node tools, so the page is there");
      await page.getByRole("heading", { name: /Business platform API/ }).first().waitFor();
      await page.getByText("API docs by Redocly").waitFor();
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: join(shots, "docs.png") });
      assert.deepEqual(errors, [], "no console error (Redoc's logo is not fetched from its CDN)");
    } finally {
      page.off("console", onConsole);
      page.off("pageerror", onError);
    }
  });

  await test("no page broke its Content-Security-Policy", async () => {
    assert.deepEqual(policyViolations, []);
  });
});
