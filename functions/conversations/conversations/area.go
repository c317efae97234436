// Package conversations serves the conversations area.
package conversations

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the conversations area.
var Area = app.Area{Name: "conversations", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of conversations): bind the area's operations
}
