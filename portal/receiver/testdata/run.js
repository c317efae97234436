// Runs the Node snippet of the portal's Webhooks page (../verify.js) on
// deliveries a Go test captured (receiver_test.go): argv[2] is a JSON
// file {publicKeyPem, cases: [{name, secret, body (base64), headers,
// laterSeconds}]}; it prints "<name>: ok" or "<name>: refused" a line.
// laterSeconds moves the clock the library reads, to replay a delivery.
const { readFileSync } = require("node:fs");
const { deliveryVerifier } = require("../verify.js");

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const now = Date.now;
for (const c of input.cases) {
  Date.now = () => now() + c.laterSeconds * 1000;
  let verdict = "ok";
  try {
    deliveryVerifier(input.publicKeyPem, c.secret)(Buffer.from(c.body, "base64"), c.headers);
  } catch {
    verdict = "refused";
  }
  console.log(`${c.name}: ${verdict}`);
}
