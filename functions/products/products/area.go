// Package products serves the products area.
package products

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the products area.
var Area = app.Area{Name: "products", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of products): bind the area's operations
}
