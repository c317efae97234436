// Package conversations serves the Conversations area: reading one message
// of the caller's account.
package conversations

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the Conversations area.
var Area = app.Area{Name: "conversations", Routes: routes, Seed: app.Seeder("conversations", seed)}

type handler struct {
	store *Messages
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewMessages(d.Table)}
	return []route.Route{
		{Op: operations.GetMessage, Handle: h.getMessage},
	}
}
