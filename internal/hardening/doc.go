// Package hardening holds the tests that attack the whole API at once: the
// bad-input battery (every operation, every malformed input), the isolation
// matrix (one account's token against another account's data) and the
// secrets test (no token, hash or Authorization header in any log line or
// answer). They run the real pipeline and handlers over HTTP on DynamoDB Local,
// with the demo dataset loaded, and check that the stored data is unchanged
// by everything that was refused.
package hardening
