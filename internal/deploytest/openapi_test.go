package deploytest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
)

func loadDocument(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(api.YAML())
	require.NoError(t, err)
	require.NoError(t, doc.Validate(context.Background()))
	return doc
}

// documentedOperations are the document's operations by route key
// ("GET /contacts/").
func documentedOperations(doc *openapi3.T) map[string]*openapi3.Operation {
	out := map[string]*openapi3.Operation{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			out[method+" "+path] = op
		}
	}
	return out
}

func TestEveryServedRouteIsDocumentedAndEveryDocumentedOperationServed(t *testing.T) {
	documented := documentedOperations(loadDocument(t))
	covered := map[string]bool{}
	for area, routes := range servedRoutes(t) {
		for _, r := range routes {
			// A path the spec writes with a trailing slash is also served
			// without it; the document describes it once, as the spec writes it.
			key := r
			if _, ok := documented[key]; !ok && !strings.HasSuffix(r, "/") {
				key = r + "/"
			}
			if assert.Contains(t, documented, key, "%s serves %s, which the document lacks", area, r) {
				covered[key] = true
			}
		}
	}
	var unserved []string
	for key := range documented {
		if !covered[key] {
			unserved = append(unserved, key)
		}
	}
	sort.Strings(unserved)
	assert.Empty(t, unserved, "documented operations no area serves")
	assert.Len(t, documented, len(operations.All))
}

func TestTheDocumentStatesEachOperationsScopeAndFailureStatuses(t *testing.T) {
	documented := documentedOperations(loadDocument(t))
	deps := wiring.Deps{Table: &storage.Table{Name: "unused"}, Clock: clock.System{}}
	for _, area := range catalog.Areas {
		for _, rt := range area.Routes(deps) {
			op := rt.Op
			t.Run(op.ID(), func(t *testing.T) {
				doc := documented[op.ID()]
				require.NotNil(t, doc, "documented")
				require.NotNil(t, doc.Security, "the operation states its security")
				require.Len(t, *doc.Security, 1)
				assert.Equal(t, openapi3.SecurityRequirement{"bearer": {op.Scope}}, (*doc.Security)[0], "the scope of shared/operations")
				kind, _ := doc.Extensions["x-token-kind"].(string)
				assert.Equal(t, op.MarketplaceOnly, kind == "marketplace", "marketplace-only operations say so")

				// Field-rule failures answer 422 where the operation lists
				// 422, and 400 on the operations without it; on those, a
				// write lists 422 for a reused Idempotency-Key only.
				has422 := doc.Responses.Value("422") != nil
				changes := op.Method != "GET"
				assert.Equal(t, op.ValidationStatus == 422 || changes, has422, "422 is listed exactly where field rules or a reused key answer 422")
				if changes && op.ValidationStatus == 400 {
					assert.Equal(t, "#/components/responses/IdempotencyKeyReused", doc.Responses.Value("422").Ref, "on an operation whose field rules answer 400, 422 is the reused key's")
				}
				// Every POST, PUT and DELETE takes an Idempotency-Key and may
				// answer 409 while the key's first request runs; reads do not.
				assert.Equal(t, changes, doc.Parameters.GetByInAndName("header", "Idempotency-Key") != nil, "Idempotency-Key is a parameter exactly of the writes")
				assert.Equal(t, changes, doc.Responses.Value("409") != nil, "409 is listed exactly on the writes")
				for _, status := range []string{"400", "401", "403", "406", "413", "415", "429", "500", "503"} {
					assert.NotNil(t, doc.Responses.Value(status), "every operation can answer %s", status)
				}
				ok := 0
				for code := range doc.Responses.Map() {
					if strings.HasPrefix(code, "2") {
						ok++
					}
				}
				assert.Equal(t, 1, ok, "one success status")
			})
		}
	}
}

// event is the part of an API Gateway sample event that makes a request.
type event struct {
	RouteKey        string            `json:"routeKey"`
	RawPath         string            `json:"rawPath"`
	RawQueryString  string            `json:"rawQueryString"`
	Headers         map[string]string `json:"headers"`
	Body            string            `json:"body"`
	IsBase64Encoded bool              `json:"isBase64Encoded"`
}

// TestTheSampleEventsSucceedWithinTheDocument replays every sample event
// (docs/api.md's calls) on the demo dataset through testenv.Send, which holds
// each request and answer against the document: the demo data's answers
// have the documented shapes.
func TestTheSampleEventsSucceedWithinTheDocument(t *testing.T) {
	root := repoRoot(t)
	env := testenv.New(t, catalog.Areas)
	ctx := context.Background()
	ds, err := demo.Default()
	require.NoError(t, err)
	_, err = demo.Load(ctx, env.Deps, ds, catalog.Areas)
	require.NoError(t, err)
	_, err = demo.CreateTokens(ctx, env.Server.Tokens, testenv.Endpoint(t))
	require.NoError(t, err)

	files, err := filepath.Glob(filepath.Join(root, "events", "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		if filepath.Base(filepath.Dir(f)) == catalog.Portal {
			continue // pages, not API operations: TestThePortalFunctionServesItsPagesUnderTheLambdaRuntimeAPI
		}
		t.Run(rel, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			var ev event
			require.NoError(t, json.Unmarshal(raw, &ev))
			require.False(t, ev.IsBase64Encoded)
			method, _, _ := strings.Cut(ev.RouteKey, " ")
			headers := map[string]string{}
			for k, v := range ev.Headers {
				headers[k] = v
			}
			path := ev.RawPath
			if ev.RawQueryString != "" {
				path += "?" + ev.RawQueryString
			}
			req := testenv.Request{Method: method, Path: path, Headers: headers, Bare: true}
			if ev.Body != "" {
				req.Body = ev.Body
			}
			resp := testenv.Send(t, env.HTTP.URL, req)
			assert.Less(t, resp.Status, 300, "body: %s", resp.Body)
		})
	}

	// Every demo message, whatever its kind (calls, e-mails, chats...).
	token := demo.Tokens[0].Value()
	for i := 1; i <= 20; i++ {
		id := fmt.Sprintf("demoMsgAlpha%08d", i)
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/conversations/messages/" + id, Token: token})
		assert.Equal(t, 200, resp.Status, "%s: %s", id, resp.Body)
	}
}
