// Package adpublishing serves the ad-publishing area.
package adpublishing

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/route"
)

// Area is the ad-publishing area.
var Area = app.Area{Name: "ad-publishing", Routes: routes}

func routes(d app.Deps) []route.Route {
	return nil // TODO(owner of ad-publishing): bind the area's operations
}
