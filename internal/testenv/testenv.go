// Package testenv runs integration tests the way the product runs: the real
// pipeline and handlers, over HTTP, against DynamoDB Local through the AWS
// SDK. make test starts one engine for every test binary
// (TEST_DYNAMODB_ENDPOINT); a test binary run alone starts its own. Each
// test gets a table of its own, deleted when the test ends.
package testenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/scopes"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

var engine struct {
	once     sync.Once
	endpoint string
	err      error
}

// Endpoint returns the URL of the test engine: TEST_DYNAMODB_ENDPOINT's
// (make test's shared engine), else one this test binary starts on first
// use and that exits with it.
func Endpoint(t testing.TB) string {
	t.Helper()
	engine.once.Do(func() {
		if ep := os.Getenv("TEST_DYNAMODB_ENDPOINT"); ep != "" {
			engine.endpoint = ep
			return
		}
		wd, err := os.Getwd()
		if err != nil {
			engine.err = err
			return
		}
		root, err := dynamodblocal.FindRoot(wd)
		if err != nil {
			engine.err = err
			return
		}
		srv, err := dynamodblocal.Start(context.Background(), dynamodblocal.Options{Root: root, Log: os.Stderr})
		if err != nil {
			engine.err = err
			return
		}
		engine.endpoint = srv.Endpoint
	})
	require.NoError(t, engine.err, "start DynamoDB Local")
	return engine.endpoint
}

// testCallTimeout bounds each DynamoDB call of a test table (the product's
// default is dynamo.DefaultCallTimeout; tools/faults tests the bounds).
const testCallTimeout = 15 * time.Second

// NewTable creates an empty table of its own on the test engine, as
// deployed (keys, index, TTL), and deletes it when the test ends.
func NewTable(t testing.TB) *storage.Table {
	t.Helper()
	ctx := context.Background()
	// Tests fire hundreds of concurrent writes at one item (under -race, on
	// a shared machine): a call may queue for seconds there, which is not
	// the failure these tests look for.
	db, err := dynamo.NewClient(ctx, Endpoint(t), "us-east-1", nil, dynamo.WithCallTimeout(testCallTimeout))
	require.NoError(t, err)
	table := &storage.Table{DB: db, Name: "test-" + randomHex(8)}
	_, err = storage.CreateTable(ctx, db, table.Name)
	require.NoError(t, err)
	// DynamoDB Local's TTL deletes items whose expiresAt is behind the real
	// clock, while a test writes on its own clock from Start, months back:
	// an event made "now" in a test would vanish mid-test. What TTL deletes
	// is AWS's to do; a test asserts the expiresAt it writes.
	ttl := storage.TimeToLiveInput(table.Name)
	ttl.TimeToLiveSpecification.Enabled = aws.Bool(false)
	_, err = db.UpdateTimeToLive(ctx, ttl)
	require.NoError(t, err)
	t.Cleanup(func() {
		assert.NoError(t, storage.DeleteTable(context.Background(), db, table.Name), "delete the test's table")
	})
	return table
}

// Start is the fixed instant every test clock starts at.
var Start = time.Date(2026, 6, 15, 12, 0, 3, 0, time.UTC)

// Env is one test's running API.
type Env struct {
	Table  *storage.Table
	Clock  *clock.Manual
	Config config.Config
	Deps   wiring.Deps
	Server *apiserver.Server
	HTTP   *httptest.Server
	areas  []app.Area
	logOut io.Writer
}

// Option changes an Env before it starts.
type Option func(*Env)

// WithLimits sets the rate limits (by default they are too high to reach).
func WithLimits(burst int, window time.Duration, daily int) Option {
	return func(e *Env) { e.Config.Burst, e.Config.Window, e.Config.Daily = burst, window, daily }
}

// LogBuffer collects a request log (or a process's output) while a test
// reads it: safe for concurrent use.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// WithLogOutput sends the request log (JSON lines) to w.
func WithLogOutput(w io.Writer) Option { return func(e *Env) { e.logOut = w } }

// WithTable serves from an existing table (to run several servers on one).
func WithTable(table *storage.Table) Option { return func(e *Env) { e.Table = table } }

// WithOperationMetrics makes the request lines also carry their metrics by
// operation (METRICS_BY_OPERATION=true).
func WithOperationMetrics() Option { return func(e *Env) { e.Config.OperationMetrics = true } }

// WithClock shares a clock between servers.
func WithClock(c *clock.Manual) Option { return func(e *Env) { e.Clock = c } }

// New starts the API with the given areas on a fresh table.
func New(t testing.TB, areas []app.Area, opts ...Option) *Env {
	t.Helper()
	e := &Env{
		Config: config.Config{TableName: "", Burst: 1_000_000, Window: 10 * time.Second, Daily: 100_000_000},
		areas:  areas,
	}
	for _, o := range opts {
		o(e)
	}
	if e.Table == nil {
		e.Table = NewTable(t)
	}
	if e.Clock == nil {
		e.Clock = clock.NewManual(Start)
	}
	e.Config.TableName = e.Table.Name
	if e.logOut == nil {
		e.logOut = io.Discard
	}
	// A key of the test's own seals the secrets users hand the API.
	keeper, err := secrets.NewEphemeralKeeper()
	require.NoError(t, err)
	e.Deps = wiring.Deps{Table: e.Table, Clock: e.Clock, Logger: wiring.NewLogger(e.logOut, slog.LevelInfo), Secrets: keeper}
	srv, err := apiserver.New(e.Config, e.Deps, areas...)
	require.NoError(t, err)
	e.Server = srv
	e.HTTP = httptest.NewServer(srv.Handler)
	t.Cleanup(e.HTTP.Close)
	return e
}

// Account creates an account of company.
func (e *Env) Account(t testing.TB, id, companyID string) {
	t.Helper()
	_, err := accountsStore(e).Create(context.Background(), id, companyID, "Account "+id)
	require.NoError(t, err)
}

func accountsStore(e *Env) *accounts.Registry { return accounts.NewRegistry(e.Table, e.Clock) }

// Token issues a private token of account holding scopes (every scope of the
// operation table when none are given) and returns its value and id.
func (e *Env) Token(t testing.TB, accountID string, scopeList ...string) (string, string) {
	t.Helper()
	return e.TokenOfKind(t, accountID, auth.KindPrivate, scopeList...)
}

// TokenOfKind issues a token of the given kind.
func (e *Env) TokenOfKind(t testing.TB, accountID, kind string, scopeList ...string) (string, string) {
	t.Helper()
	if len(scopeList) == 0 {
		scopeList = scopes.OfOperations()
	}
	value, info, err := e.Server.Tokens.Create(context.Background(), auth.NewToken{AccountID: accountID, Kind: kind, Scopes: scopeList, Name: "test"})
	require.NoError(t, err)
	return value, info.TokenID
}

// Seed loads an area's demo-format data (the same JSON the demo files hold).
func (e *Env) Seed(t testing.TB, area app.Area, data string) {
	t.Helper()
	require.NotNil(t, area.Seed, "area %s has no seed", area.Name)
	require.NoError(t, area.Seed(context.Background(), e.Deps, json.RawMessage(data)))
}

// Request is one call to the API. Zero fields get the defaults a well-behaved
// client sends: Version and Accept headers, and Content-Type with a body.
type Request struct {
	Method  string
	Path    string
	Token   string
	Body    any // marshalled to JSON unless it is a string or []byte
	Headers map[string]string
	// AddHeaders are added after Headers, each value as one more header
	// line (to send a header twice).
	AddHeaders http.Header
	// Bare sends no default headers.
	Bare bool
}

// Response is what the API answered.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req to the API.
func (e *Env) Do(t testing.TB, req Request) *Response {
	t.Helper()
	return Send(t, e.HTTP.URL, req)
}

// Send sends req to the API at baseURL.
func Send(t testing.TB, baseURL string, req Request) *Response {
	t.Helper()
	var body io.Reader
	var payload []byte
	switch b := req.Body.(type) {
	case nil:
	case string:
		payload = []byte(b)
	case []byte:
		payload = b
	default:
		raw, err := json.Marshal(b)
		require.NoError(t, err)
		payload = raw
	}
	if req.Body != nil {
		body = bytes.NewReader(payload)
	}
	hr, err := http.NewRequest(req.Method, baseURL+req.Path, body)
	require.NoError(t, err)
	if !req.Bare {
		hr.Header.Set("Version", "2021-07-28")
		hr.Header.Set("Accept", "application/json")
		if body != nil {
			hr.Header.Set("Content-Type", "application/json")
		}
	}
	if req.Token != "" {
		hr.Header.Set("Authorization", "Bearer "+req.Token)
	}
	for k, v := range req.Headers {
		if v == "" {
			hr.Header.Del(k)
		} else {
			hr.Header.Set(k, v)
		}
	}
	for k, vs := range req.AddHeaders {
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(hr)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	checkContract(t, exchange{method: req.Method, url: hr.URL.String(), reqHeader: hr.Header, reqBody: payload,
		status: resp.StatusCode, respHeader: resp.Header, respBody: raw})
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

// JSON decodes the body into v.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Body, v), "body: %s", r.Body)
}

// Map decodes the body as a JSON object.
func (r *Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// RequireError checks the status and the error body's shape, and returns
// the message as text (violations joined by "; ").
func (r *Response) RequireError(t testing.TB, status int) string {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	require.Empty(t, CheckErrorBody(status, r.Header, r.Body))
	var b ErrorBody
	r.JSON(t, &b)
	switch m := b.Message.(type) {
	case string:
		return m
	case []any:
		parts := make([]string, len(m))
		for i, p := range m {
			parts[i], _ = p.(string)
		}
		return strings.Join(parts, "; ")
	default:
		t.Fatalf("error message is neither a string nor a list: %s", r.Body)
		return ""
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// DataDir is a directory, removed when the test ends, for the data of an
// engine a test starts itself (make run's, under test): on a RAM disk where
// the machine has one (/dev/shm). DynamoDB Local syncs every write to its
// disk, and loading the demo dataset there takes half a minute instead of
// a few seconds.
func DataDir(t testing.TB) string {
	t.Helper()
	if info, err := os.Stat("/dev/shm"); err == nil && info.IsDir() {
		dir, err := os.MkdirTemp("/dev/shm", "engine-data-*")
		if err == nil {
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}
