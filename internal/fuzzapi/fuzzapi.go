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
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
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

// Fuzz runs the fuzz target: each input is a path, a raw query string and a
// body sent with method and token. Seed with f.Add(path, query, body) or
// files under testdata/fuzz/<FuzzName>/.
func (e *Env) Fuzz(f *testing.F, method, token string) {
	f.Fuzz(func(t *testing.T, path, query string, body []byte) {
		e.Check(t, method, token, path, query, body)
	})
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
