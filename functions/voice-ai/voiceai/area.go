// Package voiceai serves the voice-ai area.
package voiceai

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the voice-ai area.
var Area = app.Area{Name: "voice-ai", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of voice-ai): bind the area's operations
}
