// Package surveys serves the surveys area.
package surveys

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the surveys area.
var Area = app.Area{Name: "surveys", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of surveys): bind the area's operations
}
