// Package fuzzapi drives an operation's real handler, through the whole
// pipeline and router, with fuzzed paths, query strings and bodies against
// DynamoDB Local, and checks what every answer must be: never a 5xx, an
// error body that is the API's JSON error, a success body that is JSON. It
// is a test kit of the product (every area's fuzz test drives it), beside
// testenv and hardening.
package fuzzapi

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
)

// Env is areas' API on the demo dataset, with the demo tokens.
type Env struct {
	env    *testenv.Env
	client *http.Client
}

// New serves areas on a fresh table loaded with the demo accounts, the
// areas' demo data and the demo tokens. Limits are out of reach, so every
// fuzzed request reaches its handler.
func New(f *testing.F, areas ...app.Area) *Env {
	f.Helper()
	env := testenv.New(f, areas, testenv.WithLimits(1<<30, 10*time.Second, 1<<30))
	ds, err := demo.Default()
	require.NoError(f, err)
	part := demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart]}
	for _, a := range areas {
		if raw, ok := ds[a.Name]; ok {
			part[a.Name] = raw
		}
	}
	_, err = demo.Load(context.Background(), env.Deps, part, areas)
	require.NoError(f, err)
	_, err = demo.CreateTokens(context.Background(), env.Server.Tokens, testenv.Endpoint(f))
	require.NoError(f, err)
	return &Env{env: env, client: &http.Client{Timeout: 20 * time.Second}}
}

// Token is a demo token: 0 every scope (private), 1 every scope
// (marketplace), 2 contacts.readonly, 3 another company's account.
func Token(i int) string { return demo.Tokens[i].Value() }

// Operation is the fuzz target of op, served by areas on the demo data:
// each input is a path, a raw query string and a body sent with op's
// method and the demo token of op's kind. It is seeded with op's sample
// request (internal/samples) and variants of it that break one thing
// each, besides any files under testdata/fuzz/<FuzzName>/. Run as a plain
// test (go test), it fails when no input ran, so a target cannot pass
// without checking anything.
func Operation(f *testing.F, op operations.Operation, areas ...app.Area) {
	f.Helper()
	sample, ok := samples.Of(op)
	if !ok {
		f.Fatalf("%s has no sample request: write its x-sample in api/openapi.yaml", op.ID())
	}
	for _, seed := range seeds(sample) {
		f.Add(seed.path, seed.query, seed.body)
	}
	e := New(f, areas...)
	var ran atomic.Int64
	token := sample.Token().Value()
	f.Fuzz(func(t *testing.T, path, query string, body []byte) {
		ran.Add(1)
		e.Check(t, op.Method, token, path, query, body)
	})
	if countsInputs() && ran.Load() == 0 {
		f.Errorf("the fuzz target of %s ran no input", op.ID())
	}
}

type seed struct {
	path, query string
	body        []byte
}

// seeds are the sample request and, from it, the request without its
// query, with its body cut in half, with a JSON null for a body, and with
// its last path segment unknown.
func seeds(s samples.Request) []seed {
	out := []seed{{s.Path, s.Query, []byte(s.Body)}}
	if s.Query != "" {
		out = append(out, seed{s.Path, "", []byte(s.Body)})
	}
	if s.Body != "" {
		out = append(out,
			seed{s.Path, s.Query, []byte(s.Body[:len(s.Body)/2])},
			seed{s.Path, s.Query, []byte("null")})
	}
	if i := strings.LastIndex(strings.TrimSuffix(s.Path, "/"), "/"); i > 0 {
		out = append(out, seed{s.Path[:i+1] + "zzUnknownId000000000", s.Query, []byte(s.Body)})
	}
	return out
}

// countsInputs is whether this run's inputs are counted here: under go
// test, not under -fuzz (the workers run them, in other processes), and
// not when -run picks single seeds (it may pick none).
func countsInputs() bool {
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		return false
	}
	run := flag.Lookup("test.run")
	return run == nil || !strings.Contains(run.Value.String(), "/")
}

// Check sends one request and fails t unless the answer is sound; it
// returns the status and body for further checks.
func (e *Env) Check(t *testing.T, method, token, path, query string, body []byte) (int, []byte) {
	t.Helper()
	target := e.env.HTTP.URL + "/" + escape(strings.TrimPrefix(path, "/"), false)
	if query != "" {
		target += "?" + escape(query, true)
	}
	var r io.Reader
	if len(body) > 0 {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, target, r)
	require.NoError(t, err, "the fuzz harness built a bad URL: %q", target)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Version", "2021-07-28")
	req.Header.Set("Accept", "application/json")
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.client.Do(req)
	require.NoError(t, err, "%s %s: no answer", method, target)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	what := fmt.Sprintf("%s %s body %q", method, target, body)
	require.Less(t, resp.StatusCode, 500, "%s answered %d: %s", what, resp.StatusCode, raw)
	if resp.StatusCode >= 400 {
		if msg := testenv.CheckErrorBody(resp.StatusCode, resp.Header, raw); msg != "" {
			t.Fatalf("%s: %s", what, msg)
		}
		return resp.StatusCode, raw
	}
	require.True(t, json.Valid(raw), "%s answered %d with a body that is not JSON: %q", what, resp.StatusCode, raw)
	return resp.StatusCode, raw
}

// escape percent-encodes the bytes a URL cannot carry as they are (and '%'
// not starting an escape), keeping everything else, malformed parameter
// syntax included, for the server to judge.
func escape(s string, query bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && isHex(s, i+1) && isHex(s, i+2):
			b.WriteByte(c)
		case c == '?' && !query, c == '#', c == '%', c <= ' ', c >= 0x7f, c == '"', c == '<', c == '>', c == '\\', c == '^', c == '`', c == '{', c == '|', c == '}':
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
