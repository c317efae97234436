// Package payments serves the payments area.
package payments

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the payments area.
var Area = app.Area{Name: "payments", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of payments): bind the area's operations
}
