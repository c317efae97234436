// Package emails serves the emails area.
package emails

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the emails area.
var Area = app.Area{Name: "emails", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of emails): bind the area's operations
}
