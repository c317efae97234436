// What the node flows share (flows.mjs and consent.mjs here,
// oauth/sdktest/sdk.mjs): the local server as `make run` runs it on make
// test's engine, platformctl against its table, headless chromium, axe-core,
// a receiver standing in for an app's web server, and a small runner that
// stops at the first failure and cleans up.
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import http from "node:http";
import net from "node:net";
import assert from "node:assert/strict";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const shots = join(root, ".local", "portal");
export const alpha = "demoLocAlpha00000001";
export const company = "demoCompanyNorthwind";
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";

const cleanups = [];
export function onCleanup(fn) {
  cleanups.unshift(fn);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

// make test's engine (TEST_DYNAMODB_ENDPOINT) with a table of the run's
// own; run alone, the server starts an engine of its own, as make run does.
const shared = process.env.TEST_DYNAMODB_ENDPOINT || "";

// startServer runs bin/devserver with extra environment and waits for its
// banner; it returns the base URL, the engine, the table, the demo sign-in
// and the server's log lines (stderr, JSON).
export async function startServer(name, env = {}) {
  for (const bin of ["devserver", "platformctl"]) {
    if (!existsSync(join(root, "bin", bin))) throw new Error(`bin/${bin} is missing: run make test-browser`);
  }
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), `${name}-`));
  onCleanup(() => rmSync(data, { recursive: true, force: true }));
  const table = shared ? `${name}-${process.pid}-${Date.now()}` : "platform";
  const engineEnv = shared
    ? { DYNAMODB_ENDPOINT: shared, TABLE_NAME: table }
    : { DYNAMODB_LOCAL_PORT: "0", DYNAMODB_LOCAL_DATA_DIR: data, DYNAMODB_ENDPOINT: "", TABLE_NAME: table };
  const proc = spawn(join(root, "bin", "devserver"), [], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ...engineEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onCleanup(() => proc.kill("SIGTERM"));
  const logs = [];
  let partial = "";
  proc.stderr.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    logs.push(...lines.filter((l) => l.trim() !== ""));
  });
  let banner = "";
  return await new Promise((resolve, reject) => {
    // A first start loads the demo dataset: a minute or more on a busy machine.
    const timer = setTimeout(() => reject(new Error("devserver did not start:\n" + banner)), 180000);
    proc.stdout.on("data", (chunk) => {
      banner += chunk;
      const engine = shared ? [null, shared] : banner.match(/DynamoDB Local \S+ at (http:\/\/[0-9.:]+)/);
      const portal = banner.match(/Portal: (http:\/\/\S+)/);
      const signIn = banner.match(/Demo portal sign-in \([^)]*\): (\S+) \/ (\S+)/);
      if (engine && portal && signIn) {
        clearTimeout(timer);
        resolve({ base: `http://127.0.0.1:${port}`, engine: engine[1], table, email: signIn[1], password: signIn[2], logs });
      }
    });
    proc.on("exit", (code) => reject(new Error(`devserver exited (${code}):\n${banner}`)));
  });
}

export function platformctl(server, ...args) {
  return execFileSync(join(root, "bin", "platformctl"), args, {
    cwd: root,
    env: { ...process.env, DYNAMODB_ENDPOINT: server.engine, TABLE_NAME: server.table, PORTAL_URL: server.base },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

// receiver stands in for an app's web server: its redirect URI answers a
// plain page, its webhook URL keeps each request's raw body and headers.
export async function startReceiver() {
  const hooks = [];
  const waiting = [];
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      if (req.url.startsWith("/hooks")) {
        hooks.push({ method: req.method, url: req.url, headers: req.headers, rawBody: Buffer.concat(chunks) });
        for (const w of waiting.splice(0)) w();
      }
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end('<!doctype html><html lang="en"><title>App</title><main><h1>Back at the app</h1></main></html>');
    });
  });
  await new Promise((resolve) => srv.listen(0, "127.0.0.1", resolve));
  onCleanup(() => new Promise((resolve) => srv.close(resolve)));
  const base = `http://127.0.0.1:${srv.address().port}`;
  return {
    redirectURI: `${base}/callback`,
    webhookURL: `${base}/hooks`,
    hooks,
    // waitForHook resolves with the first webhook received whose JSON body
    // matches, waiting up to timeout ms (the local server delivers every 2 s).
    async waitForHook(match, timeout = 30000) {
      const end = Date.now() + timeout;
      for (;;) {
        const found = hooks.find((h) => match(JSON.parse(h.rawBody.toString("utf8"))));
        if (found) return found;
        if (Date.now() > end) throw new Error(`no matching webhook within ${timeout} ms; received ${hooks.map((h) => h.rawBody).join(", ")}`);
        await new Promise((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 500);
        });
      }
    },
  };
}

export async function launchBrowser(viewport = { width: 1280, height: 860 }) {
  if (!existsSync(browserPath)) throw new Error(`no browser at ${browserPath}: as root, apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), "oauth-chromium-"));
  onCleanup(() => rmSync(profile, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
    viewport,
  });
  onCleanup(() => context.close());
  return context;
}

let axeSource;
// accessible runs axe-core on the page: no serious or critical violation.
export async function accessible(page, name) {
  axeSource ??= readFileSync(join(root, "node_modules", "axe-core", "axe.min.js"), "utf8");
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    [],
    `axe-core on ${name}`,
  );
}

// signIn fills the portal's sign-in form the page is on.
export async function signIn(page, email, password) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

// authorizeURL is the consent page's address as an app builds it.
export function authorizeURL(server, app, redirectURI, scope, state, path = "/oauth/chooselocation") {
  const q = new URLSearchParams({ response_type: "code", client_id: app.clientId, redirect_uri: redirectURI, scope, state });
  return `${server.base}${path}?${q}`;
}

// consoleWatch collects what a page logs as an error (console errors,
// uncaught exceptions), but for a page the test asked for that answered
// 4xx or 5xx (a refused form, a 404 page): Chromium logs "Failed to load
// resource" for those too. A missing asset, an icon the browser looks for
// at /favicon.ico, a script error or a refused policy is an error.
function consoleWatch(page) {
  const errors = [];
  const refusedPages = new Set();
  page.on("response", (res) => {
    if (res.status() >= 400 && res.request().resourceType() === "document") refusedPages.add(res.url());
  });
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push({ text: msg.text(), url: msg.location().url || "" });
  });
  page.on("pageerror", (err) => errors.push({ text: `uncaught: ${err.message}`, url: "" }));
  // take returns the errors logged since the last call.
  return () => errors.splice(0).filter((e) => !(/^Failed to load resource/.test(e.text) && refusedPages.has(e.url)))
    .map((e) => `${e.text}${e.url ? ` (${e.url})` : ""}`);
}

// run runs the flows (each `test` stops the run at its first failure, and
// fails when a watched page logged an error during it), cleans up and
// exits with the result.
export async function run(title, flows) {
  let passed = 0;
  let failed = 0;
  let page;
  const watched = new Map();
  const watch = (p) => {
    page = p;
    if (!watched.has(p)) watched.set(p, consoleWatch(p));
  };
  const test = async (name, fn) => {
    try {
      await fn();
      const logged = [...watched.values()].flatMap((take) => take());
      assert.deepEqual(logged, [], "no console error on the pages of this step");
      passed++;
      console.log(`ok   ${name}`);
    } catch (err) {
      failed++;
      console.log(`FAIL ${name}\n${err.stack || err}`);
      if (page) {
        await page.screenshot({ path: join(shots, `${title}-failure.png`), fullPage: true }).catch(() => {});
        console.log(`at ${page.url()} (screenshot: .local/portal/${title}-failure.png)`);
      }
      throw err; // the flows build on each other
    }
  };
  mkdirSync(shots, { recursive: true });
  let code = 0;
  try {
    await flows(test, watch);
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
  console.log(`${title}: ${passed} passed, ${failed} failed`);
  process.exit(code);
}

// The widths at which the pages with tables are checked: a phone, a tablet,
// a small laptop, the portal's own width, and ordinary desktops.
export const tableWidths = [390, 768, 1024, 1180, 1280, 1440];

// actionsInView checks the page at each of tableWidths: every action
// button of its tables (at least `least` of them, folded ones opened) lies
// inside the viewport's width and inside the visible rect of each ancestor
// that clips or scrolls (a table scrolling sideways in its box hides what is
// past its edge), the page does not pan sideways, and axe-core passes; a
// screenshot of each width goes to .local/portal/<name>-<width>.png.
export async function actionsInView(page, name, least) {
  const before = page.viewportSize();
  try {
    for (const width of tableWidths) {
      await page.setViewportSize({ width, height: 900 });
      // The screenshot shows the page as it opens; the check opens every
      // folded part (the ended tokens, the scopes) first.
      await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
      const found = await page.evaluate(() => {
        const closed = [...document.querySelectorAll("details:not([open])")];
        for (const d of closed) d.open = true;
        const problems = [];
        const buttons = [...document.querySelectorAll("table .row-actions button")];
        const viewport = document.documentElement.clientWidth;
        for (const button of buttons) {
          const what = button.textContent.trim().slice(0, 60);
          const r = button.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) {
            problems.push(`${what}: not shown`);
            continue;
          }
          if (r.left < 0 || r.right > viewport + 0.5) problems.push(`${what}: x ${r.left}..${r.right} outside the ${viewport} px viewport`);
          for (let el = button.parentElement; el && el !== document.documentElement; el = el.parentElement) {
            const style = getComputedStyle(el);
            if (style.overflowX === "visible" && style.overflowY === "visible") continue;
            const box = el.getBoundingClientRect();
            const left = box.left + el.clientLeft;
            const top = box.top + el.clientTop;
            const right = left + el.clientWidth;
            const bottom = top + el.clientHeight;
            if (r.left < left - 0.5 || r.right > right + 0.5 || r.top < top - 0.5 || r.bottom > bottom + 0.5) {
              problems.push(`${what}: outside the visible box of ${el.tagName.toLowerCase()}.${el.className} (button x ${r.left}..${r.right}, box ${left}..${right})`);
            }
          }
        }
        const pageWidth = document.documentElement.scrollWidth;
        for (const d of closed) d.open = false;
        return { count: buttons.length, problems, pageWidth, viewport };
      });
      assert.deepEqual(found.problems, [], `${name} at ${width} px: every action is in view`);
      assert.ok(found.count >= least, `${name} at ${width} px: ${found.count} action buttons, expected at least ${least}`);
      assert.ok(found.pageWidth <= found.viewport, `${name} at ${width} px: the page is ${found.pageWidth} px wide, so it pans sideways`);
      await accessible(page, `${name} at ${width} px`);
    }
  } finally {
    await page.setViewportSize(before);
  }
}

// The widths at which the pages without action buttons in tables (forms,
// filtered lists) are checked.
export const pageWidths = [390, 768, 1024, 1280, 1440];

// everyWidth checks the page at each of pageWidths: axe-core, no sideways
// panning, no table wider than its box (which would hide a column behind a
// sideways scroll), what check(width) checks, and a screenshot,
// .local/portal/<name>-<width>.png; it leaves the page at 1280 px.
export async function everyWidth(page, name, check) {
  for (const width of pageWidths) {
    await page.setViewportSize({ width, height: 900 });
    if (check) await check(width);
    await accessible(page, `${name} at ${width} px`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width, `${name} at ${width} px: the page is ${scroll} px wide`);
    const wider = await page.evaluate(() => [...document.querySelectorAll(".table-wrap")]
      .filter((w) => w.querySelector("table").scrollWidth > w.clientWidth + 1).map((w) => w.getAttribute("aria-labelledby")));
    assert.deepEqual(wider, [], `${name} at ${width} px: tables wider than their box`);
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

// notCutOff checks that a field shows its whole value: nothing scrolls
// inside it, and it lies within the screen's width.
export async function notCutOff(page, locator, what) {
  const m = await locator.evaluate((el) => ({
    scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight,
    right: el.getBoundingClientRect().right, viewport: document.documentElement.clientWidth,
  }));
  assert.ok(m.scrollWidth <= m.clientWidth && m.scrollHeight <= m.clientHeight,
    `${what} shows its whole value (content ${m.scrollWidth}x${m.scrollHeight} in ${m.clientWidth}x${m.clientHeight})`);
  assert.ok(m.right <= m.viewport, `${what} ends within the ${m.viewport} px screen (at ${m.right})`);
}
