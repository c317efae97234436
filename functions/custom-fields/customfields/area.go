// Package customfields serves the custom-fields area.
package customfields

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the custom-fields area.
var Area = app.Area{Name: "custom-fields", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of custom-fields): bind the area's operations
}
