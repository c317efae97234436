package faults_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/tools/perf"
)

// The bounds the fault tests run with: short, so the tests are fast, and
// the same mechanism as the defaults (config.Load).
const (
	callTimeout    = time.Second
	maxAttempts    = 2
	requestTimeout = 2 * time.Second
	// slack covers scheduling on a busy machine; an answer later than
	// requestTimeout+slack counts as a hang.
	slack = 1500 * time.Millisecond
)

// harness is the whole API (every area, the demo dataset and tokens) on a
// table of its own on the test engine, reached through a proxy that can
// take the engine away (down, up) or make it hang (frozen), as an outage or
// a black-holed network would: the engine itself, like DynamoDB, keeps
// whatever it applied.
type harness struct {
	proxy  *freezer
	table  *storage.Table
	url    string
	events map[string]perf.Event
	client *http.Client
	logs   *testenv.LogBuffer
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	if testing.Short() {
		t.Skip("loads the whole demo dataset")
	}
	ctx := context.Background()
	wd, err := os.Getwd()
	require.NoError(t, err)
	root, err := dynamodblocal.FindRoot(wd)
	require.NoError(t, err)
	own := testenv.NewTable(t) // created, and deleted when the test ends
	engine := testenv.Endpoint(t)
	proxy := newFreezer(t, engine)

	cfg := config.Config{
		TableName: own.Name, Burst: 1_000_000, Window: 10 * time.Second, Daily: 100_000_000,
		DynamoCallTimeout: callTimeout, DynamoMaxAttempts: maxAttempts, RequestTimeout: requestTimeout,
	}
	db, err := dynamo.NewClient(ctx, proxy.endpoint(), "us-east-1", nil, wiring.ClientOptions(cfg)...)
	require.NoError(t, err)
	logs := &testenv.LogBuffer{}
	keeper, err := secrets.NewEphemeralKeeper()
	require.NoError(t, err)
	deps := wiring.Deps{Table: &storage.Table{DB: db, Name: cfg.TableName}, Clock: clock.System{}, Logger: slog.New(slog.NewJSONHandler(logs, nil)), Secrets: keeper}
	srv, err := apiserver.New(cfg, deps, catalog.Areas...)
	require.NoError(t, err)
	ds, err := demo.Default()
	require.NoError(t, err)
	_, err = demo.Load(ctx, deps, ds, catalog.Areas)
	require.NoError(t, err)
	_, err = demo.CreateTokens(ctx, srv.Tokens, engine)
	require.NoError(t, err)
	httpSrv := httptest.NewServer(srv.Handler)
	t.Cleanup(httpSrv.Close)

	list, err := perf.ReadEvents(root)
	require.NoError(t, err)
	require.Len(t, list, len(operations.All), "one sample request per operation")
	events := map[string]perf.Event{}
	for _, e := range list {
		events[e.Name()] = e
	}
	return &harness{proxy: proxy, table: deps.Table, url: httpSrv.URL, events: events,
		client: &http.Client{Timeout: 30 * time.Second}, logs: logs}
}

// answer is a response with how long it took.
type answer struct {
	status int
	header http.Header
	body   []byte
	took   time.Duration
}

func (h *harness) send(t *testing.T, req *http.Request) answer {
	t.Helper()
	start := time.Now()
	resp, err := h.client.Do(req)
	require.NoError(t, err, "%s %s: the server must answer, not hang or drop the connection", req.Method, req.URL)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return answer{status: resp.StatusCode, header: resp.Header, body: body, took: time.Since(start)}
}

func (h *harness) sendEvent(t *testing.T, e perf.Event) answer {
	t.Helper()
	req, err := e.Request(h.url)
	require.NoError(t, err)
	return h.send(t, req)
}

// call sends a request with the demo token of every scope.
func (h *harness) call(t *testing.T, method, path, body string) answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.url+path, r)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+demo.Tokens[0].Value())
	req.Header.Set("Version", "2021-07-28")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return h.send(t, req)
}

// item reads one item straight from the engine (consistent read).
func (h *harness) item(t *testing.T, key storage.Key) map[string]any {
	t.Helper()
	out, err := h.table.DB.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(h.table.Name), Key: key.AV(), ConsistentRead: aws.Bool(true),
	})
	require.NoError(t, err)
	require.NotNil(t, out.Item, "item %v", key)
	var m map[string]any
	require.NoError(t, attributevalue.UnmarshalMap(out.Item, &m))
	return m
}

// key is an item of the demo account Alpha.
func key(sk string) storage.Key {
	return storage.Key{PK: storage.AccountPK("demoLocAlpha00000001"), SK: sk}
}

// canonical is v as compact JSON with sorted keys.
func canonical(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}

// partition reads every item of the demo account Alpha.
func (h *harness) partition(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	var start map[string]types.AttributeValue
	for {
		page, err := h.table.DB.Query(context.Background(), &dynamodb.QueryInput{
			TableName:                 aws.String(h.table.Name),
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: storage.AccountPK("demoLocAlpha00000001")}},
			ConsistentRead:            aws.Bool(true),
			ExclusiveStartKey:         start,
		})
		require.NoError(t, err)
		for _, av := range page.Items {
			var m map[string]any
			require.NoError(t, attributevalue.UnmarshalMap(av, &m))
			out = append(out, m)
		}
		if len(page.LastEvaluatedKey) == 0 {
			return out
		}
		start = page.LastEvaluatedKey
	}
}
