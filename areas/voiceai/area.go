// Package voiceai serves the Voice AI area: updating an action attached to a
// voice agent.
package voiceai

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
)

// Area is the voice-ai area.
var Area = app.Area{Name: "voice-ai", Routes: routes, Seed: app.Seeder("voice-ai", seed)}

type handler struct {
	store *Agents
	clock clock.Clock
}

func routes(d app.Deps) []route.Route {
	h := &handler{store: NewAgents(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.UpdateVoiceAction, Handle: h.updateAction},
	}
}
