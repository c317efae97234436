// The official Node SDK (@gohighlevel/api-client, pinned in package.json),
// unchanged, as a client of a contact's tasks and notes on the local
// server: each of its eleven task and note methods with a private token,
// every answer validated against the public API's own response schema for
// its operation and status (published-tasks-notes.json, copied from the
// public definitions), the refusals a client meets, and the events of the
// changes delivered once each to an account's webhook endpoint, signed as
// the SDK's WebhookManager verifies them and shaped as the public
// platform's published event schemas.
//
//   make test-browser      (builds bin/devserver and bin/platformctl first)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import sdk from "@gohighlevel/api-client";
// The JSON Schema validator @redocly/cli (make lint) installs: no package
// of the test's own.
import Ajv from "@redocly/ajv";
import { alpha, platformctl, run, startReceiver, startServer } from "../../../portal/browsertest/harness.mjs";

const { HighLevel } = sdk;
const published = JSON.parse(readFileSync(new URL("./published-tasks-notes.json", import.meta.url), "utf8"));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The published schemas are OpenAPI 3.0 schema objects: plain JSON Schema
// for what they use (type, properties, items, required, $ref).
// The document's two sections hold the schemas; strict mode refuses any
// other keyword it does not know.
const ajv = new Ajv({ strict: true, allErrors: true });
ajv.addVocabulary(["components", "webhookEvents"]);
ajv.addSchema({ $id: "published", components: published.components, webhookEvents: published.webhookEvents });

// conforms asserts that body validates against the schema at ref.
function conforms(body, ref, what) {
  const validate = ajv.getSchema(`published${ref}`);
  assert.ok(validate, `the published document has ${ref}`);
  assert.ok(validate(body), `${what} validates against ${ref}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
}

// statusOf is the HTTP status of a failed SDK call.
async function statusOf(promise) {
  try {
    await promise;
  } catch (err) {
    return err.statusCode ?? err.response?.status;
  }
  return 200;
}

await run("sdk-tasks", async (test) => {
  const server = await startServer("sdk-tasks");
  const receiver = await startReceiver();
  const publicKey = platformctl(server, "apps", "webhook-key");
  const token = platformctl(server, "tokens", "create", "--account", alpha, "--scopes", "contacts.readonly,contacts.write", "--name", "SDK tasks and notes");
  HighLevel.BASE_URL = server.base;
  // Each answer's status and method, as the SDK's own HTTP client received
  // it (the SDK's methods return the body alone).
  const answers = [];
  const client = (config) => {
    const c = new HighLevel({ ...config, logLevel: "none" });
    c.httpClient.interceptors.response.use((res) => {
      answers.push({ status: res.status, method: res.config.method.toUpperCase(), url: res.config.url });
      return res;
    });
    return c;
  };
  const ghl = client({ privateIntegrationToken: token, webhookPublicKey: publicKey });

  // call runs one SDK method and checks its answer against the published
  // operation: its success status and response schema.
  async function call(operationId, promise) {
    const op = published.operations[operationId];
    const body = await promise;
    const last = answers.at(-1);
    assert.equal(last.method, op.method, operationId);
    assert.equal(last.status, op.status, `${operationId} answers ${op.status}`);
    conforms(body, op.schema, operationId);
    return body;
  }

  const contactId = "demoCtcAlpha00000002";
  const types = ["TaskCreate", "TaskUpdate", "TaskComplete", "TaskDelete", "NoteCreate", "NoteUpdate", "NoteDelete"];
  const made = {};

  await test("the published schemas refuse an answer of another shape", async () => {
    assert.throws(() => conforms({ tasks: [{ id: "t1", completed: "yes" }] }, published.operations["get-all-tasks"].schema, "a bad list"));
    assert.throws(() => conforms({ note: { pinned: 1 } }, published.operations["get-note"].schema, "a bad note"));
    assert.throws(() => conforms({ type: "NoteCreate", dateAdded: 7 }, "#/webhookEvents/NoteCreate", "a bad event"));
  });

  await test("an account endpoint subscribes to the task and note events", async () => {
    const endpoint = JSON.parse(platformctl(server, "webhooks", "add", "--account", alpha, "--url", receiver.webhookURL,
      "--events", types.join(","), "--description", "SDK tasks and notes"));
    assert.match(endpoint.id, /^[0-9a-f]{24}$/);
  });

  await test("contacts.createTask creates a task, answering 201 as published", async () => {
    const { task } = await call("create-task", ghl.contacts.createTask({ contactId }, {
      title: "Send the whitening offer", body: "Two sessions, price list attached.", dueDate: "2025-01-20T15:00:00+01:00",
      completed: false, assignedTo: "demoUsrNorth00000007",
    }));
    assert.match(task.id, /^[A-Za-z0-9]{20}$/);
    assert.equal(task.contactId, contactId);
    assert.equal(task.dueDate, "2025-01-20T14:00:00.000Z");
    assert.equal(task.completed, false);
    made.task = task;
  });

  await test("contacts.getAllTasks lists it, contacts.getTask reads it", async () => {
    const { tasks } = await call("get-all-tasks", ghl.contacts.getAllTasks({ contactId }));
    assert.deepEqual(tasks.map((t) => t.id), [made.task.id], "the contact had no task before");
    const { task } = await call("get-task", ghl.contacts.getTask({ contactId, taskId: made.task.id }));
    assert.deepEqual(task, made.task);
  });

  await test("contacts.updateTask changes the fields sent and keeps the others", async () => {
    const { task } = await call("update-task", ghl.contacts.updateTask({ contactId, taskId: made.task.id }, { title: "Send the offer by post" }));
    assert.deepEqual(task, { ...made.task, title: "Send the offer by post" });
    made.task = task;
  });

  await test("contacts.updateTaskCompleted completes it", async () => {
    const { task } = await call("update-task-completed", ghl.contacts.updateTaskCompleted({ contactId, taskId: made.task.id }, { completed: true }));
    assert.deepEqual(task, { ...made.task, completed: true });
  });

  await test("contacts.deleteTask deletes it; then getTask and deleteTask answer 404", async () => {
    const done = await call("delete-task", ghl.contacts.deleteTask({ contactId, taskId: made.task.id }));
    assert.deepEqual(done, { succeded: true });
    assert.equal(await statusOf(ghl.contacts.getTask({ contactId, taskId: made.task.id })), 404);
    assert.equal(await statusOf(ghl.contacts.deleteTask({ contactId, taskId: made.task.id })), 404);
  });

  await test("contacts.createNote creates a note, answering 201 as published", async () => {
    const { note } = await call("create-note", ghl.contacts.createNote({ contactId }, {
      userId: "demoUsrNorth00000007", body: "Called about the invoice.\nWill pay by Friday.", title: "Call summary", color: "#FFAA00", pinned: true,
    }));
    assert.match(note.id, /^[A-Za-z0-9]{20}$/);
    assert.equal(note.body, "Called about the invoice.\nWill pay by Friday.");
    assert.equal(note.pinned, true);
    made.note = note;
  });

  await test("contacts.getAllNotes lists it after the contact's own, contacts.getNote reads it", async () => {
    const { notes } = await call("get-all-notes", ghl.contacts.getAllNotes({ contactId }));
    assert.equal(notes.at(-1).id, made.note.id, "the newest last");
    assert.ok(notes.length > 1, "the demo contact's notes are there too");
    const { note } = await call("get-note", ghl.contacts.getNote({ contactId, id: made.note.id }));
    assert.deepEqual(note, made.note);
  });

  await test("contacts.updateNote changes the fields sent and keeps the others", async () => {
    const { note } = await call("update-note", ghl.contacts.updateNote({ contactId, id: made.note.id }, { body: "Paid on Friday.", pinned: false }));
    assert.deepEqual(note, { ...made.note, body: "Paid on Friday.", pinned: false });
    made.note = note;
  });

  await test("contacts.deleteNote deletes it; then getNote answers 404", async () => {
    const done = await call("delete-note", ghl.contacts.deleteNote({ contactId, id: made.note.id }));
    assert.deepEqual(done, { succeded: true });
    assert.equal(await statusOf(ghl.contacts.getNote({ contactId, id: made.note.id })), 404);
  });

  await test("what a client may get wrong is refused: a missing contact 404, a broken rule 422, no scope 403", async () => {
    assert.equal(await statusOf(ghl.contacts.getAllTasks({ contactId: "zzMissingContact0001" })), 404);
    assert.equal(await statusOf(ghl.contacts.createNote({ contactId: "zzMissingContact0001" }, { body: "x" })), 404);
    assert.equal(await statusOf(ghl.contacts.createTask({ contactId }, { title: "No due date", completed: false })), 422);
    assert.equal(await statusOf(ghl.contacts.updateNote({ contactId, id: "demoNteAlpha00000002" }, { color: "orange" })), 422);
    const reader = platformctl(server, "tokens", "create", "--account", alpha, "--scopes", "contacts.readonly", "--name", "SDK reader");
    const readOnly = client({ privateIntegrationToken: reader });
    assert.equal(await statusOf(readOnly.contacts.createNote({ contactId }, { body: "x" })), 403);
    const { notes } = await call("get-all-notes", readOnly.contacts.getAllNotes({ contactId }));
    assert.ok(notes.every((n) => n.id !== made.note.id), "the deleted note is gone");
  });

  await test("each change's event reaches the endpoint once, signed as the SDK verifies, in the published shape", async () => {
    const want = [
      ["TaskCreate", made.task.id], ["TaskUpdate", made.task.id], ["TaskComplete", made.task.id], ["TaskDelete", made.task.id],
      ["NoteCreate", made.note.id], ["NoteUpdate", made.note.id], ["NoteDelete", made.note.id],
    ];
    for (const [type, id] of want) {
      const hook = await receiver.waitForHook((b) => b.type === type && b.id === id);
      const raw = hook.rawBody.toString("utf8");
      const body = JSON.parse(raw);
      assert.equal(body.locationId, alpha);
      assert.equal(ghl.webhooks.verifyEd25519Signature(raw, hook.headers["x-ghl-signature"], publicKey), true, `${type} is signed`);
      assert.equal(ghl.webhooks.verifyEd25519Signature(raw.replace(alpha, "demoLocBravo00000002"), hook.headers["x-ghl-signature"], publicKey), false,
        `${type}: a changed body fails`);
      if (published.webhookEvents[type]) {
        conforms(body, `#/webhookEvents/${type}`, type);
      } else {
        assert.equal(type, "TaskUpdate", "only this platform's own event has no published schema");
        conforms(body, "#/webhookEvents/TaskCreate", `${type}, shaped as the task events`);
      }
      for (const field of ["id", "contactId", "dateAdded", "body"]) {
        assert.equal(typeof body[field], "string", `${type} carries ${field}`);
      }
    }
    await sleep(5000); // two more delivery rounds
    for (const [type, id] of want) {
      const copies = receiver.hooks.filter((h) => {
        const b = JSON.parse(h.rawBody.toString("utf8"));
        return b.type === type && b.id === id;
      });
      assert.equal(copies.length, 1, `${type} delivered once`);
    }
    const refusals = receiver.hooks.filter((h) => JSON.parse(h.rawBody.toString("utf8")).id === "zzMissingContact0001");
    assert.equal(refusals.length, 0, "no event for a refused request");
  });

  await test("no token appears in the server's log", async () => {
    assert.ok(!server.logs.join("\n").includes(token));
  });
});
