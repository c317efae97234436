// Package voiceai serves the Voice AI area: updating an action attached to a
// voice agent.
package voiceai

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/secrets/kmskey"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the voice-ai area. It keeps secrets users hand it (custom
// actions' credentials), sealed with the KMS key when deployed.
var Area = app.Area{Name: "voice-ai", Routes: routes, Seed: app.Seeder("voice-ai", seed), OpenKMSKey: kmskey.Open, GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{ActionUpdated}}

type handler struct {
	store   *Agents
	clock   clock.Clock
	secrets *secrets.Keeper
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewAgents(d.Table), clock: d.Clock, secrets: d.Secrets}
	return []route.Route{
		{Op: operations.UpdateVoiceAction, Handle: h.updateAction},
	}
}
