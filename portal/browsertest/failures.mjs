// The failed-requests page in a real browser: failures made through the
// API with the demo tokens, then the page reached from the API settings,
// filtered by status and by token, checked with axe-core, for fitting the
// screen and for showing each request id on one line at 390, 768, 1024,
// 1280 and 1440 px, with a screenshot at each (.local/portal/failures-*.png),
// and no console error on any page (the harness). Run by make
// test-browser.
import assert from "node:assert/strict";
import { alpha, everyWidth, launchBrowser, run, signIn, startServer } from "./harness.mjs";

const allScopes = "bpt_DemoAllScopesAlphaLocal0000000011xFMXT";
const readOnly = "bpt_DemoReadOnlyAlphaLocal00000000032R8lSL";

async function api(server, token, method, path, body) {
  const headers = { Authorization: `Bearer ${token}`, Version: "2021-07-28" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(server.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  await res.arrayBuffer();
  return { status: res.status, id: res.headers.get("x-request-id") };
}

// requestIdsOnOneLine checks that every request id of the list shows on
// one line (the id an admin quotes to support, read at a glance), however
// wide the screen.
async function requestIdsOnOneLine(page, width) {
  const lines = await page.locator("table.failures code.request-id").evaluateAll((ids) =>
    ids.map((el) => ({ id: el.textContent, lines: el.getClientRects().length })));
  assert.ok(lines.length > 0, "request ids are listed");
  assert.deepEqual(lines.filter((l) => l.lines !== 1), [], `at ${width} px every request id is on one line`);
}

// rows are the listed failures' statuses.
async function statuses(page) {
  return page.locator("table.failures tbody .status").allInnerTexts();
}

await run("failures", async (test, watch) => {
  // A low limit, so that a burst is answered 429.
  const server = await startServer("portal-failures", { RATE_LIMIT_BURST: "10", RATE_LIMIT_WINDOW_SECONDS: "3600" });
  const context = await launchBrowser({ width: 1280, height: 900 });
  const page = context.pages()[0] || (await context.newPage());
  watch(page);
  const made = {};

  await test("failed API requests of Alpha's tokens are made", async () => {
    made.forbidden = await api(server, allScopes, "GET", "/contacts/?locationId=demoLocCharlie000003");
    made.scope = await api(server, readOnly, "DELETE", "/contacts/demoCtcAlpha00000002/tasks/demoTskAlpha00000002");
    made.invalid = await api(server, allScopes, "GET", `/medias/files?altType=account&altId=${alpha}`);
    made.hint = await api(server, allScopes, "PUT", "/store/shipping-zone/a10300000000000000000002", { locationId: alpha, name: "West" });
    made.ok = await api(server, allScopes, "GET", `/contacts/?locationId=${alpha}&limit=1`);
    made.anonymous = await api(server, "", "GET", `/contacts/?locationId=${alpha}`);
    assert.deepEqual([made.forbidden.status, made.scope.status, made.invalid.status, made.hint.status, made.ok.status, made.anonymous.status],
      [403, 403, 422, 422, 200, 401]);
  });

  await test("a burst over the limit is answered 429", async () => {
    made.limited = 0;
    for (let i = 0; i < 10; i++) {
      if ((await api(server, allScopes, "GET", `/contacts/?locationId=${alpha}&limit=1`)).status === 429) made.limited++;
    }
    assert.ok(made.limited >= 5, `${made.limited} answers were 429`);
  });

  await test("the API settings page leads to the failed requests, newest first", async () => {
    await page.goto(server.base + "/portal/sign-in");
    await signIn(page, server.email, server.password);
    await page.goto(`${server.base}/portal/accounts/${alpha}`);
    await page.getByRole("link", { name: "Failed requests" }).click();
    await page.getByRole("heading", { name: "Failed requests" }).waitFor();
    assert.deepEqual(await statuses(page), ["422", "422", "403", "403"], "the four failures, newest first; not the success, not the request without a token, no 429");
    await page.getByText(`${made.limited} requests were answered 429 in the last 7 days`).waitFor();
    await page.getByRole("region", { name: "429 answers by day" }).waitFor();
    const table = page.getByRole("region", { name: /Failed requests of/ });
    for (const r of [made.forbidden, made.scope, made.invalid, made.hint]) {
      await table.getByText(r.id).waitFor();
    }
    await table.getByText("sortBy is required (one of: createdAt, updatedAt, name)").waitFor();
    await table.getByText("this body names its account by altId, with altType account", { exact: false }).waitFor();
    await table.getByText("GET /contacts/", { exact: true }).first().waitFor();
    assert.equal(await page.getByText(allScopes).count(), 0, "never a token's value");
    await everyWidth(page, "failures-list", (width) => requestIdsOnOneLine(page, width));
  });

  await test("a status filter lists that status only", async () => {
    await page.getByLabel("Status").selectOption("403");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/status=403/);
    assert.deepEqual(await statuses(page), ["403", "403"]);
    assert.equal(await page.getByLabel("Status").inputValue(), "403", "the filter shows what it is set to");
    await everyWidth(page, "failures-by-status", (width) => requestIdsOnOneLine(page, width));
  });

  await test("a token filter lists that token's failures only", async () => {
    await page.getByLabel("Status").selectOption("");
    const options = await page.getByLabel("Token").locator("option").allInnerTexts();
    const readOnlyOption = options.find((o) => /read/i.test(o));
    assert.ok(readOnlyOption, `the read-only token is offered: ${options.join(" | ")}`);
    await page.getByLabel("Token").selectOption({ label: readOnlyOption });
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/token=/);
    assert.deepEqual(await statuses(page), ["403"]);
    await page.getByText(made.scope.id).waitFor();
    await page.getByLabel("Status").selectOption("5xx");
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByText("No failed request of the last 7 days matches this filter.").waitFor();
    await everyWidth(page, "failures-none-match");
  });
});
