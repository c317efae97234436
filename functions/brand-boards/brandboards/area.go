// Package brandboards serves the brand-boards area.
package brandboards

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the brand-boards area.
var Area = app.Area{Name: "brand-boards", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of brand-boards): bind the area's operations
}
