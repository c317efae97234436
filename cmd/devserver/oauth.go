package main

import (
	"net/http"

	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/config"
)

// mountOAuth serves the OAuth server's routes on mux beside the API, as
// OAuthFunction does deployed (its own handling: form bodies, no Version
// header; company tokens where it takes a bearer token).
func mountOAuth(mux *http.ServeMux, cfg config.Config, srv *app.Server) {
	h := oauth.New(srv.Core, cfg.OAuthAccessTokenTTL, cfg.RequestTimeout)
	for _, route := range oauth.Routes {
		mux.Handle(route, h)
	}
}
