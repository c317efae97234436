// Package users serves the users area.
package users

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the users area.
var Area = app.Area{Name: "users", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of users): bind the area's operations
}
