// Package areas is the root of the API's areas: one package per area
// (contacts, payments, ...), each serving its operations as plain
// http.Handlers, with its Lambda entry point in functions/<area>/main.go.
// docs/areas.md says how an area is built.
package areas
