package apiserver_test

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
)

func TestNewServerGuardsRetriesOfEveryAreaThatChangesThings(t *testing.T) {
	var (
		create = operations.Operation{Method: "POST", Path: "/things", Area: "things", Scope: "contacts.write", ValidationStatus: 422, Body: true}
		list   = operations.Operation{Method: "GET", Path: "/things", Area: "things", Scope: "contacts.readonly", ValidationStatus: 422}
	)
	handle := func(http.ResponseWriter, *http.Request) error { return nil }
	routes := func(ops ...operations.Operation) func(wiring.Deps) []route.Route {
		return func(wiring.Deps) []route.Route {
			var rs []route.Route
			for _, op := range ops {
				rs = append(rs, route.Route{Op: op, Handle: handle})
			}
			return rs
		}
	}
	var guarded []string
	guard := func(_ *storage.Table, _ clock.Clock, _ *slog.Logger, rs []route.Route) []route.Route {
		for _, rt := range rs {
			guarded = append(guarded, rt.Op.ID())
		}
		return rs
	}
	deps := wiring.Deps{Table: &storage.Table{Name: "t"}}

	t.Run("an area that changes things hands its routes to its guard", func(t *testing.T) {
		guarded = nil
		_, err := apiserver.New(config.Config{}, deps, app.Area{Name: "things", Routes: routes(create, list), GuardRetries: guard})
		require.NoError(t, err)
		assert.Equal(t, []string{"POST /things", "GET /things"}, guarded)
	})
	t.Run("a read-only area starts without a guard", func(t *testing.T) {
		_, err := apiserver.New(config.Config{}, deps, app.Area{Name: "things", Routes: routes(list)})
		require.NoError(t, err)
	})
	t.Run("an area that changes things without a guard does not start", func(t *testing.T) {
		_, err := apiserver.New(config.Config{}, deps, app.Area{Name: "things", Routes: routes(list, create)})
		require.Error(t, err)
		assert.ErrorContains(t, err, "area things serves POST /things but sets no GuardRetries")
	})
}
