package pipeline_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// An area that reads and writes marker items, to see what a request did
// to storage while its admission ran alongside.
var (
	markOp = operations.Operation{Method: "POST", Path: "/mark/{id}", Area: "mark", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	readOp = operations.Operation{Method: "GET", Path: "/mark/{id}", Area: "mark", Scope: "contacts.readonly", ValidationStatus: 422}
)

type marker struct {
	storage.Key
	ID string `dynamodbav:"id"`
}

func markerKey(id string) storage.Key { return storage.Key{PK: "MARK#" + id, SK: "MARK"} }

var markArea = app.Area{Name: "mark", Routes: func(d wiring.Deps) []route.Route {
	return []route.Route{
		{Op: markOp, Handle: func(w http.ResponseWriter, r *http.Request) error {
			id := r.PathValue("id")
			if err := d.Table.Put(r.Context(), marker{Key: markerKey(id), ID: id}, nil); err != nil {
				return dynamo.Classify(err)
			}
			return httpio.WriteJSON(w, http.StatusOK, map[string]string{"marked": id})
		}},
		{Op: readOp, Handle: func(w http.ResponseWriter, r *http.Request) error {
			m, err := storage.Get[marker](r.Context(), d.Table, markerKey(r.PathValue("id")))
			if err != nil {
				return dynamo.Classify(err)
			}
			return httpio.WriteJSON(w, http.StatusOK, map[string]bool{"found": m != nil})
		}},
	}
}, GuardRetries: idempotency.GuardRoutes}

func markerStored(t *testing.T, table *storage.Table, id string) bool {
	m, err := storage.Get[marker](context.Background(), table, markerKey(id))
	require.NoError(t, err)
	return m != nil
}

func TestAdmissionRunsAlongsideTheHandlerButGuardsItsEffects(t *testing.T) {
	t.Run("a request over the limit answers 429 with the limit headers and writes nothing", func(t *testing.T) {
		env := testenv.New(t, []app.Area{markArea}, testenv.WithLimits(1, 10*time.Second, 1000))
		env.Account(t, "acct1", "co1")
		token, _ := env.Token(t, "acct1")

		require.Equal(t, http.StatusOK, env.Do(t, testenv.Request{Method: "POST", Path: "/mark/first", Token: token}).Status)
		resp := env.Do(t, testenv.Request{Method: "POST", Path: "/mark/second", Token: token})
		resp.RequireError(t, http.StatusTooManyRequests)
		assert.Equal(t, "0", resp.Header.Get("X-RateLimit-Remaining"))
		assert.NotEmpty(t, resp.Header.Get("Retry-After"))
		assert.NotEmpty(t, resp.Header.Get("X-Request-Id"))
		assert.True(t, markerStored(t, env.Table, "first"))
		assert.False(t, markerStored(t, env.Table, "second"), "the refused request's write never happened")
	})

	t.Run("a read by a refused request never reaches the client", func(t *testing.T) {
		env := testenv.New(t, []app.Area{markArea}, testenv.WithLimits(1, 10*time.Second, 1000))
		env.Account(t, "acct1", "co1")
		token, _ := env.Token(t, "acct1")
		require.Equal(t, http.StatusOK, env.Do(t, testenv.Request{Method: "POST", Path: "/mark/first", Token: token}).Status)

		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/mark/first", Token: token})
		resp.RequireError(t, http.StatusTooManyRequests)
		assert.NotContains(t, string(resp.Body), "found")
	})

	t.Run("a revoked token's request answers 401 and writes nothing, though its facts are cached", func(t *testing.T) {
		env := testenv.New(t, []app.Area{markArea})
		env.Account(t, "acct1", "co1")
		token, tokenID := env.Token(t, "acct1")
		require.Equal(t, http.StatusOK, env.Do(t, testenv.Request{Method: "POST", Path: "/mark/first", Token: token}).Status)
		_, err := env.Server.Tokens.Revoke(context.Background(), tokenID)
		require.NoError(t, err)

		resp := env.Do(t, testenv.Request{Method: "POST", Path: "/mark/second", Token: token})
		resp.RequireError(t, http.StatusUnauthorized)
		assert.Empty(t, resp.Header.Get("X-RateLimit-Remaining"))
		assert.False(t, markerStored(t, env.Table, "second"))
	})

	t.Run("a warm read costs one round trip: the admission write and the read overlap", func(t *testing.T) {
		table := testenv.NewTable(t)
		counted, calls := testenv.CountingTable(t, table)
		env := testenv.New(t, []app.Area{markArea}, testenv.WithTable(counted))
		env.Account(t, "acct1", "co1")
		token, _ := env.Token(t, "acct1")
		require.Equal(t, http.StatusOK, env.Do(t, testenv.Request{Method: "GET", Path: "/mark/x", Token: token}).Status)
		calls.Take()

		require.Equal(t, http.StatusOK, env.Do(t, testenv.Request{Method: "GET", Path: "/mark/x", Token: token}).Status)
		assert.Equal(t, map[string]int{"UpdateItem": 1, "GetItem": 1}, calls.Take())
	})

	t.Run("an account refused a moment ago is admitted before its handler reads", func(t *testing.T) {
		table := testenv.NewTable(t)
		counted, calls := testenv.CountingTable(t, table)
		env := testenv.New(t, []app.Area{markArea}, testenv.WithTable(counted), testenv.WithLimits(1, 10*time.Second, 1000))
		env.Account(t, "acct1", "co1")
		token, _ := env.Token(t, "acct1")
		require.Equal(t, http.StatusOK, env.Do(t, testenv.Request{Method: "GET", Path: "/mark/x", Token: token}).Status)
		env.Do(t, testenv.Request{Method: "GET", Path: "/mark/x", Token: token}).RequireError(t, http.StatusTooManyRequests)
		calls.Take()

		env.Do(t, testenv.Request{Method: "GET", Path: "/mark/x", Token: token}).RequireError(t, http.StatusTooManyRequests)
		// The failed conditional write (the state item comes back with the
		// failure) and the hour's 429 counter for the account's admins
		// (failures.go); not the handler's read.
		assert.Equal(t, map[string]int{"UpdateItem": 2}, calls.Take(), "no handler read for a request refused anyway")

		env.Clock.Advance(10 * time.Second)
		require.Equal(t, http.StatusOK, env.Do(t, testenv.Request{Method: "GET", Path: "/mark/x", Token: token}).Status)
	})
}
