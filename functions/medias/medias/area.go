// Package medias serves the medias area.
package medias

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the medias area.
var Area = app.Area{Name: "medias", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of medias): bind the area's operations
}
