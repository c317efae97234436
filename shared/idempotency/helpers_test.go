package idempotency_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/emails"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
)

// The tally area counts its calls: POST /tally/{name} adds one to the
// account's counter of name and answers the count, then does what its
// query's "then" says, so that a test sees how often a handler ran and can
// make it fail, panic, answer a large body or wait.
var tallyOp = operations.Operation{Method: "POST", Path: "/tally/{name}", Area: "tally", Scope: "contacts.write", ValidationStatus: 422, Body: true}

type tallyItem struct {
	storage.Key
	Count int `dynamodbav:"count"`
}

func tallyKey(accountID, name string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "TALLY#" + name}
}

// gate holds the first "then=wait" request of a tally name inside the
// handler until opened.
type gate struct {
	entered chan struct{}
	open    chan struct{}
	once    sync.Once
}

func newGate(t *testing.T) *gate {
	g := &gate{entered: make(chan struct{}, 8), open: make(chan struct{})}
	t.Cleanup(g.release) // never leave a handler waiting
	return g
}

func (g *gate) release() { g.once.Do(func() { close(g.open) }) }

// hold sends a "then=wait" tally request and returns once its handler is
// waiting (its key claimed); answer waits for the request's answer.
func (g *gate) hold(t *testing.T, env *testenv.Env, token, path, key string) (answer func() *testenv.Response) {
	t.Helper()
	done := make(chan struct{})
	var resp *testenv.Response
	go func() {
		defer close(done)
		resp = tally(t, env, token, path, key)
	}()
	<-g.entered
	return func() *testenv.Response {
		<-done
		require.NotNil(t, resp, "the held request got an answer")
		return resp
	}
}

func tallyArea(g *gate) app.Area {
	return app.Area{Name: "tally", Routes: func(d wiring.Deps) []route.Route {
		return []route.Route{{Op: tallyOp, Handle: func(w http.ResponseWriter, r *http.Request) error {
			p, err := auth.PrincipalFrom(r.Context())
			if err != nil {
				return err
			}
			key := tallyKey(p.AccountID, r.PathValue("name"))
			if err := d.Table.Update(r.Context(), key, expression.Add(expression.Name("count"), expression.Value(1)), nil); err != nil {
				return dynamo.Classify(err)
			}
			item, err := storage.Get[tallyItem](r.Context(), d.Table, key)
			if err != nil {
				return dynamo.Classify(err)
			}
			switch r.URL.Query().Get("then") {
			case "unavailable":
				return apierror.Unavailable(errors.New("test outage"), time.Second)
			case "fail":
				return errors.New("test failure")
			case "panic":
				panic("test panic")
			case "large":
				return httpio.WriteJSON(w, http.StatusOK, map[string]any{"count": item.Count, "padding": strings.Repeat("x", idempotency.MaxKeptBody)})
			case "wait": // the first run of a name waits for the gate
				if g != nil && item.Count == 1 {
					g.entered <- struct{}{}
					<-g.open
				}
			case "refuse":
				return apierror.NotFound("Tally %s is closed", r.PathValue("name"))
			}
			return httpio.WriteJSON(w, http.StatusOK, map[string]any{"count": item.Count})
		}}}
	}, GuardRetries: idempotency.GuardRoutes}
}

// newEnv serves the tally area and two real areas (e-mail templates,
// contacts) to accounts A and B, and returns A's token.
func newEnv(t *testing.T, g *gate, opts ...testenv.Option) (*testenv.Env, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{tallyArea(g), emails.Area, contacts.Area}, opts...)
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	token, _ := env.Token(t, acctA)
	return env, token
}

// tally sends POST /tally/<path> with key (none when empty).
func tally(t *testing.T, env *testenv.Env, token, path, key string) *testenv.Response {
	t.Helper()
	return env.Do(t, keyed(testenv.Request{Method: "POST", Path: "/tally/" + path, Token: token}, key))
}

func keyed(req testenv.Request, key string) testenv.Request {
	if key != "" {
		if req.Headers == nil {
			req.Headers = map[string]string{}
		}
		req.Headers[idempotency.HeaderKey] = key
	}
	return req
}

// count is how many times the handler of the account's tally name ran.
func count(t *testing.T, env *testenv.Env, accountID, name string) int {
	t.Helper()
	item, err := storage.Get[tallyItem](context.Background(), env.Table, tallyKey(accountID, name))
	require.NoError(t, err)
	if item == nil {
		return 0
	}
	return item.Count
}

// record is the stored record of key, as raw attributes; nil when none.
func record(t *testing.T, env *testenv.Env, accountID, key string) map[string]any {
	t.Helper()
	item, err := storage.Get[map[string]any](context.Background(), env.Table, idempotency.RecordKey(accountID, key))
	require.NoError(t, err)
	if item == nil {
		return nil
	}
	return *item
}

func countOf(t *testing.T, resp *testenv.Response) int {
	t.Helper()
	var body struct {
		Count int `json:"count"`
	}
	resp.JSON(t, &body)
	return body.Count
}

func remaining(t *testing.T, resp *testenv.Response) int {
	t.Helper()
	n, err := strconv.Atoi(resp.Header.Get("X-Ratelimit-Remaining"))
	require.NoError(t, err, "X-RateLimit-Remaining")
	return n
}
