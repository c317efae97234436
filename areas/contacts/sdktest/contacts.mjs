// The official Node SDK (@gohighlevel/api-client, pinned in package.json),
// unchanged, drives every contact method against the local server with a
// private integration token: createContact, getContact, updateContact,
// upsertContact (new and existing), getDuplicateContact,
// searchContactsAdvanced, addTags, removeTags, deleteContact. Each answer
// is validated against the public API's published response schema
// (published.json here: the facts of its definitions, its source named
// there; search and the duplicate check publish none). The account's
// webhook endpoint chose the contact events: each arrives once, its
// x-ghl-signature verifies with the SDK's own Ed25519 check, and its body
// validates against the event's published schema.
//
//   make test-browser      (builds bin/devserver and bin/platformctl first)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sdk from "@gohighlevel/api-client";
import Ajv from "@redocly/ajv";
import { alpha, platformctl, run, startReceiver, startServer } from "../../../portal/browsertest/harness.mjs";

const { HighLevel } = sdk;
const published = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "published.json"), "utf8"));
const contactEvents = ["ContactCreate", "ContactUpdate", "ContactDelete", "ContactTagUpdate", "ContactDndUpdate"];

// The published schemas are OpenAPI 3.0's (nullable, examples left out):
// ajv takes them as JSON schemas, nullable included.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ components: published.components }, "published");
for (const [name, schema] of Object.entries(published.webhookEvents)) ajv.addSchema(schema, `event-${name}`);

// conforms asserts that answer validates against the published response
// schema of operationId.
function conforms(operationId, answer) {
  const op = published.operations[operationId];
  assert.ok(op, `${operationId} is published`);
  assert.ok(op.schema, `${operationId} publishes a response schema`);
  const validate = ajv.getSchema(`published#/components/schemas/${op.schema}`);
  assert.ok(validate(answer), `${operationId}'s answer fits ${op.schema}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(answer)}`);
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

await run("sdk-contacts", async (test) => {
  const server = await startServer("sdk-contacts");
  const receiver = await startReceiver();
  HighLevel.BASE_URL = server.base;
  const publicKey = platformctl(server, "apps", "webhook-key");
  platformctl(server, "webhooks", "add", "--account", alpha, "--url", receiver.webhookURL, "--events", contactEvents.join(","));
  const token = platformctl(server, "tokens", "create", "--account", alpha, "--scopes", "contacts.readonly,contacts.write", "--name", "sdk contacts");
  const ghl = new HighLevel({ privateIntegrationToken: token, webhookPublicKey: publicKey, logLevel: "none" });
  const c = ghl.contacts;
  let rosan, other;

  await test("createContact creates a contact and answers it in the published shape", async () => {
    const answer = await c.createContact({
      locationId: alpha, firstName: "Rosan", lastName: "Deo", email: "rosan.deo@sdk.example", phone: "+1 888-555-0199",
      address1: "3535 1st St N", city: "Dolomite", state: "AL", postalCode: "35061", website: "https://www.example.com",
      timezone: "America/Chicago", dnd: false, tags: ["SDK", "lead"], source: "public api", dateOfBirth: "1990-09-25",
      country: "US", companyName: "DGS VolMAX", customFields: [{ id: "cfSdkTier", field_value: "gold" }],
    });
    conforms("create-contact", answer);
    rosan = answer.contact;
    assert.match(rosan.id, /^[A-Za-z0-9]{20}$/);
    assert.equal(rosan.phone, "+18885550199");
    assert.deepEqual(rosan.tags, ["sdk", "lead"]);
  });

  await test("createContact with an e-mail another contact has is refused (the account refuses duplicates)", async () => {
    assert.equal(await statusOf(c.createContact({ locationId: alpha, email: "ROSAN.DEO@sdk.example" })), 422);
  });

  await test("getContact answers the contact in the published shape", async () => {
    const answer = await c.getContact({ contactId: rosan.id });
    conforms("get-contact", answer);
    assert.equal(answer.contact.email, "rosan.deo@sdk.example");
    assert.equal(answer.contact.dateOfBirth, "1990-09-25T00:00:00.000Z");
  });

  await test("updateContact changes the fields sent, do-not-disturb included", async () => {
    const answer = await c.updateContact({ contactId: rosan.id }, {
      city: "Birmingham", dnd: true, dndSettings: { SMS: { status: "active", message: "no texts", code: "101" } },
    });
    conforms("update-contact", answer);
    assert.equal(answer.succeded, true);
    assert.equal(answer.contact.city, "Birmingham");
    assert.equal(answer.contact.dndSettings.SMS.status, "active");
  });

  await test("upsertContact creates a contact for a new e-mail, then updates it", async () => {
    const created = await c.upsertContact({ locationId: alpha, email: "upsert@sdk.example", firstName: "Uma" });
    conforms("upsert-contact", created);
    assert.equal(created.new, true);
    const updated = await c.upsertContact({ locationId: alpha, email: "UPSERT@sdk.example", lastName: "Ito" });
    conforms("upsert-contact", updated);
    assert.equal(updated.new, false);
    assert.equal(updated.contact.id, created.contact.id);
    assert.equal(updated.contact.name, "Uma Ito");
    other = updated.contact;
  });

  await test("getDuplicateContact finds the contact of an e-mail or a number, and none for another", async () => {
    const byEmail = await c.getDuplicateContact({ locationId: alpha, email: "rosan.deo@sdk.example" });
    assert.equal(byEmail.contact.id, rosan.id);
    const byNumber = await c.getDuplicateContact({ locationId: alpha, number: "+18885550199" });
    assert.equal(byNumber.contact.id, rosan.id);
    const none = await c.getDuplicateContact({ locationId: alpha, email: "nobody@sdk.example" });
    assert.equal(none.contact, null);
  });

  await test("searchContactsAdvanced finds by a query and filters, with the total", async () => {
    const answer = await c.searchContactsAdvanced({
      locationId: alpha, pageLimit: 10, query: "rosan",
      filters: [{ field: "tags", operator: "eq", value: "sdk" }, { group: "OR", filters: [{ field: "city", operator: "eq", value: "Birmingham" }, { field: "dnd", operator: "eq", value: false }] }],
      sort: [{ field: "dateAdded", direction: "desc" }],
    });
    assert.equal(answer.total, 1);
    assert.deepEqual(answer.contacts.map((x) => x.id), [rosan.id]);
    assert.ok(Array.isArray(answer.contacts[0].searchAfter));
    assert.equal(await statusOf(c.searchContactsAdvanced({ locationId: alpha, filters: [{ field: "shoeSize", operator: "eq", value: "9" }] })), 400);
  });

  await test("addTags and removeTags change the tags, the search follows at once", async () => {
    const added = await c.addTags({ contactId: other.id }, { tags: ["Webinar", "vip"] });
    conforms("add-tags", added);
    assert.deepEqual(added.tags, ["webinar", "vip"]);
    let found = await c.searchContactsAdvanced({ locationId: alpha, filters: [{ field: "tags", operator: "eq", value: "webinar" }], pageLimit: 100 });
    assert.ok(found.contacts.some((x) => x.id === other.id));
    const removed = await c.removeTags({ contactId: other.id }, { tags: ["webinar"] });
    conforms("remove-tags", removed);
    assert.deepEqual(removed.tags, ["vip"]);
    found = await c.searchContactsAdvanced({ locationId: alpha, filters: [{ field: "tags", operator: "eq", value: "webinar" }], pageLimit: 100 });
    assert.ok(!found.contacts.some((x) => x.id === other.id));
  });

  await test("deleteContact deletes the contact; getContact then answers 404", async () => {
    const answer = await c.deleteContact({ contactId: other.id });
    conforms("delete-contact", answer);
    assert.equal(answer.succeded, true);
    assert.equal(await statusOf(c.getContact({ contactId: other.id })), 404);
  });

  await test("each contact event reaches the account's endpoint once, signed, in its published shape", async () => {
    for (const type of contactEvents) {
      const hook = await receiver.waitForHook((b) => b.type === type);
      const body = JSON.parse(hook.rawBody.toString("utf8"));
      assert.equal(body.locationId, alpha);
      const signature = hook.headers["x-ghl-signature"];
      assert.ok(signature, `${type} is signed`);
      assert.equal(ghl.webhooks.verifyEd25519Signature(hook.rawBody.toString("utf8"), signature, publicKey), true, `${type}'s signature verifies`);
      const forged = hook.rawBody.toString("utf8").replace(alpha, "demoLocBravo00000002");
      assert.equal(ghl.webhooks.verifyEd25519Signature(forged, signature, publicKey), false, `a changed ${type} does not`);
      const validate = ajv.getSchema(`event-${type}`);
      assert.ok(validate(body), `${type} fits its published schema: ${ajv.errorsText(validate.errors)}`);
    }
    // Each event once: two more deliveries' worth, then count by webhookId.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const ids = receiver.hooks.map((h) => JSON.parse(h.rawBody.toString("utf8")).webhookId);
    assert.equal(new Set(ids).size, ids.length, "no event delivered twice");
    const created = receiver.hooks.filter((h) => JSON.parse(h.rawBody.toString("utf8")).type === "ContactCreate");
    assert.equal(created.length, 2, "Rosan and the upserted contact: the refused duplicate made none");
  });
});
