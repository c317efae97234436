// Checks a delivery to your endpoint: both signatures, on the raw body.
// npm install standardwebhooks
const { createPublicKey, verify } = require("node:crypto");
const { Webhook } = require("standardwebhooks");

// publicKeyPem: the public key above; secret: the endpoint's whsec_… secret.
function deliveryVerifier(publicKeyPem, secret) {
  const publicKey = createPublicKey(publicKeyPem);
  const endpoint = new Webhook(secret);
  // body: the raw body (a Buffer), before any JSON parsing; headers: req.headers.
  return (body, headers) => {
    const signature = Buffer.from(headers["x-ghl-signature"] || "", "base64");
    if (!verify(null, body, publicKey, signature)) {
      throw new Error("x-ghl-signature does not verify");
    }
    // Throws unless webhook-signature verifies and webhook-timestamp is
    // within 5 minutes; skip a webhook-id you have processed already.
    return endpoint.verify(body, headers);
  };
}

module.exports = { deliveryVerifier };
