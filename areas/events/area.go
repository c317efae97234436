// Package events serves GET /events, an extension beyond the spec: an
// account's events (shared/events), newest first with a cursor, showing only
// those whose scope the calling token holds, so that an integration that was
// down catches up without a full resync.
package events

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the events area. It makes no events of its own.
var Area = app.Area{Name: "events", Routes: routes}

func routes(d wiring.Deps) []route.Route {
	h := &handler{table: d.Table, types: events.Registry}
	return []route.Route{{Op: operations.ListEvents, Handle: h.list}}
}
