// Package associations serves the associations area.
package associations

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the associations area.
var Area = app.Area{Name: "associations", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of associations): bind the area's operations
}
