package testenv

import (
	"net/http"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// PingOp is a read operation of PingArea, for tests of the shared layers.
var PingOp = operations.Operation{Method: "GET", Path: "/ping", Area: "ping", Scope: "contacts.readonly", ValidationStatus: 422}

// PingArea answers GET /ping with the caller's account: the smallest area
// that runs the whole pipeline.
var PingArea = app.Area{Name: "ping", Routes: func(wiring.Deps) []route.Route {
	return []route.Route{{Op: PingOp, Handle: func(w http.ResponseWriter, r *http.Request) error {
		p, err := auth.PrincipalFrom(r.Context())
		if err != nil {
			return err
		}
		return httpio.WriteJSON(w, http.StatusOK, map[string]string{"account": p.AccountID})
	}}}
}}
