// Package dryrun is the event that asks a function not behind the API (the
// webhook deliverer) to prove a version works, starting and reaching its
// table, without doing its work: the deploy hook sends it, so that checking
// a new version changes no real data.
package dryrun

import (
	"bytes"
	"encoding/json"
)

// Event is the dry run's invocation event; no stream batch or schedule
// event carries its member.
var Event = []byte(`{"bizplatformDryRun":true}`)

// Is reports whether an invocation's event asks for a dry run.
func Is(event []byte) bool {
	if !bytes.Contains(event, []byte("bizplatformDryRun")) {
		return false
	}
	var e struct {
		DryRun bool `json:"bizplatformDryRun"`
	}
	return json.Unmarshal(event, &e) == nil && e.DryRun
}
