// Package adpublishing serves the ad-publishing area: the reporting list of
// the search ad network (campaigns or ad groups with their metrics over a
// date range) and the removal of an account's social ad network integration.
package adpublishing

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the ad-publishing area.
var Area = app.Area{Name: "ad-publishing", Routes: routes, Seed: app.Seeder("ad-publishing", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{SocialIntegrationDeleted}}

type handler struct {
	store *Ads
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewAds(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.SearchAdsReportingList, Handle: h.reportingList},
		{Op: operations.DeleteSocialAdsIntegration, Handle: h.deleteSocialIntegration},
	}
}
