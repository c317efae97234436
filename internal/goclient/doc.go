// Package goclient holds the test that a Go developer can generate a
// client of the API: oapi-codegen and ogen, pinned as tools in the module
// under testdata/module, generate from api/openapi-3.0.yaml (the 3.0
// rendition, internal/gen/openapi30) clients that build, and a program on
// oapi-codegen's client works against the server on DynamoDB Local.
// docs/api.md, "A Go client", says how to do the same.
package goclient
