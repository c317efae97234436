// The portal's flows in a real browser: Debian's chromium driven by
// playwright-core (no browser is downloaded), against the local server that
// `make run` runs (bin/devserver, on a free port with its own data), with
// axe-core checking every page for serious and critical accessibility
// violations. Screenshots of each step go to .local/portal/.
//
//   make test-browser      (builds bin/devserver and bin/platformctl first)
//
// CHROMIUM overrides the browser's path (default /usr/bin/chromium).
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";
import assert from "node:assert/strict";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const shots = join(root, ".local", "portal");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const axeSource = readFileSync(join(root, "node_modules", "axe-core", "axe.min.js"), "utf8");
const alpha = "demoLocAlpha00000001";
const company = "demoCompanyNorthwind";
const charlieToken = "bpt_DemoAllScopesCharlieLocal00000043d2IwA";

let passed = 0;
let failed = 0;
const cleanups = [];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

// make test's engine, shared by every test (TEST_DYNAMODB_ENDPOINT): the
// server gets a table of its own on it. Run alone, the server starts an
// engine of its own, as make run does.
const shared = process.env.TEST_DYNAMODB_ENDPOINT || "";
const table = shared ? `portal-browser-${process.pid}-${Date.now()}` : "platform";
function engineEnv(data) {
  if (shared) return { DYNAMODB_ENDPOINT: shared, TABLE_NAME: table };
  return { DYNAMODB_LOCAL_PORT: "0", DYNAMODB_LOCAL_DATA_DIR: data, DYNAMODB_ENDPOINT: "", TABLE_NAME: table };
}

// startServer runs bin/devserver as make run does and waits for its banner.
async function startServer() {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), "portal-browser-"));
  cleanups.push(() => rmSync(data, { recursive: true, force: true }));
  const proc = spawn(join(root, "bin", "devserver"), [], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ...engineEnv(data) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanups.push(() => proc.kill("SIGTERM"));
  let banner = "";
  proc.stderr.on("data", () => {});
  return await new Promise((resolve, reject) => {
    // A first start loads the demo dataset: a minute or more on a busy machine.
    const timer = setTimeout(() => reject(new Error("devserver did not start:\n" + banner)), 180000);
    proc.stdout.on("data", (chunk) => {
      banner += chunk;
      const engine = shared ? [null, shared] : banner.match(/DynamoDB Local \S+ at (http:\/\/[0-9.:]+)/);
      const portal = banner.match(/Portal: (http:\/\/\S+)/);
      if (engine && portal) {
        clearTimeout(timer);
        resolve({ base: `http://127.0.0.1:${port}`, engine: engine[1], banner });
      }
    });
    proc.on("exit", (code) => reject(new Error(`devserver exited (${code}):\n${banner}`)));
  });
}

function platformctl(server, ...args) {
  return execFileSync(join(root, "bin", "platformctl"), args, {
    cwd: root,
    env: { ...process.env, DYNAMODB_ENDPOINT: server.engine, TABLE_NAME: table, PORTAL_URL: server.base },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

// api calls the API with a token and returns the status.
async function api(server, token, path) {
  const res = await fetch(server.base + path, { headers: { Authorization: `Bearer ${token}`, Version: "2021-07-28" } });
  await res.arrayBuffer();
  return res.status;
}

// check runs axe-core on the page: no serious or critical violation.
async function accessible(page, name) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    [],
    `axe-core on ${name}`,
  );
}

let shotCount = 0;
// step screenshots the page and checks it with axe-core.
async function step(page, name) {
  shotCount++;
  await page.screenshot({ path: join(shots, `${String(shotCount).padStart(2, "0")}-${name}.png`), fullPage: true });
  await accessible(page, name);
}

let currentPage;
async function test(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}\n${err.stack || err}`);
    if (currentPage) {
      await currentPage.screenshot({ path: join(shots, "failure.png"), fullPage: true }).catch(() => {});
      console.log(`at ${currentPage.url()} (screenshot: .local/portal/failure.png)`);
    }
    throw err; // the flows build on each other: stop at the first failure
  }
}

async function main() {
  for (const bin of ["devserver", "platformctl"]) {
    if (!existsSync(join(root, "bin", bin))) throw new Error(`bin/${bin} is missing: run make test-browser`);
  }
  if (!existsSync(browserPath)) throw new Error(`no browser at ${browserPath}: as root, apt-get install -y chromium`);
  mkdirSync(shots, { recursive: true });
  const server = await startServer();
  const profile = mkdtempSync(join(tmpdir(), "portal-chromium-"));
  cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
    viewport: { width: 1280, height: 860 },
  });
  cleanups.unshift(() => context.close());
  const page = context.pages()[0] || (await context.newPage());
  currentPage = page;
  const policyViolations = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to/.test(msg.text())) policyViolations.push(msg.text());
  });
  const email = `erin.e2e.${Date.now()}@alphadental.example`;
  const password = "correct horse battery staple";
  const settingsPath = `/portal/accounts/${alpha}`;
  let link, first, second, third;

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
    await step(page, "rotate");
    await page.getByRole("button", { name: "Rotate token" }).click();
    second = { value: await page.getByLabel("New token").inputValue() };
    second.id = await page.locator("dl.facts code").first().textContent();
    assert.notEqual(second.value, first.value);
    assert.equal(await api(server, second.value, `/contacts/?locationId=${alpha}`), 200);
    assert.equal(await api(server, first.value, `/contacts/?locationId=${alpha}`), 200, "the old one works for 7 days");
    await page.goto(server.base + settingsPath);
    await page.locator(`tr[data-token-id="${first.id}"]`).getByText(/^Expires at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/).waitFor();
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
    await page.locator(`tr[data-token-id="${third.id}"]`).getByText(/^Revoked at/).waitFor();
    await step(page, "revoked");
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

  await test("signing out ends the session", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("You have signed out.").waitFor();
    await step(page, "signed-out");
    await page.goto(server.base + settingsPath);
    await page.waitForURL(/\/portal\/sign-in/);
  });

  await test("no page broke its Content-Security-Policy", async () => {
    assert.deepEqual(policyViolations, []);
  });
}

let code = 0;
try {
  await main();
} catch (err) {
  if (failed === 0) {
    failed++;
    console.log(`FAIL ${err.stack || err}`);
  }
  code = 1;
} finally {
  for (const clean of cleanups) {
    try {
      await clean();
    } catch {
      // best effort: the process is ending
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(code);
