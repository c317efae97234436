// Package store serves the store area.
package store

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the store area.
var Area = app.Area{Name: "store", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of store): bind the area's operations
}
