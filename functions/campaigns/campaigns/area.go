// Package campaigns serves the campaigns area.
package campaigns

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the campaigns area.
var Area = app.Area{Name: "campaigns", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of campaigns): bind the area's operations
}
