// Package events serves GET /events, an extension beyond the spec: an
// account's events (shared/events), newest first with a cursor, showing only
// those whose scope the calling token holds, so that an integration that was
// down catches up without a full resync.
package events

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the events area. It makes no events of its own.
var Area = app.Area{Name: "events", Routes: routes}

func routes(d wiring.Deps) []route.Route {
	h := &handler{table: d.Table, types: Types}
	return []route.Route{{Op: operations.ListEvents, Handle: h.list}}
}

// Type is an event type of the registry as the listing (and the portal's
// webhooks page) needs it.
type Type struct {
	Name  string
	Scope string
	// Summary says when the event is made.
	Summary string
	// OfCompany: a company's event, which no account's endpoint receives.
	OfCompany bool
}

// Names are the names of the registry's account events, in its order: the
// types an account's webhook endpoint may choose (the portal, platformctl).
func Names() []string {
	var account []Type
	for _, typ := range Types {
		if !typ.OfCompany {
			account = append(account, typ)
		}
	}
	return names(account)
}

func names(types []Type) []string {
	out := make([]string, len(types))
	for i, typ := range types {
		out[i] = typ.Name
	}
	return out
}
