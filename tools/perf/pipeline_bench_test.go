package perf

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
)

// stubServer is every area behind the whole pipeline, on the demo dataset
// held by a Stub, with the request log written (as JSON) to nowhere.
func stubServer(b *testing.B) http.Handler {
	b.Helper()
	ctx := context.Background()
	stub := NewStub()
	table := &storage.Table{DB: stub, Name: "bench"}
	keeper, err := secrets.NewEphemeralKeeper()
	if err != nil {
		b.Fatal(err)
	}
	deps := wiring.Deps{Table: table, Clock: clock.System{}, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Secrets: keeper}
	ds, err := demo.Default()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := demo.Load(ctx, deps, ds, catalog.Areas); err != nil {
		b.Fatal(err)
	}
	srv, err := apiserver.New(config.Config{TableName: "bench", Burst: 1 << 30, Window: 10 * time.Second, Daily: 1 << 30}, deps, catalog.Areas...)
	if err != nil {
		b.Fatal(err)
	}
	// The stub is a local engine as far as the demo tokens' guard goes.
	if _, err := demo.CreateTokens(ctx, srv.Tokens, "http://127.0.0.1:1"); err != nil {
		b.Fatal(err)
	}
	stub.Freeze()
	return srv.Handler
}

// benchWriter is a ResponseWriter that keeps nothing but the status, so that
// the figures are the server's allocations, not a recorder's.
type benchWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *benchWriter) Header() http.Header { return w.header }
func (w *benchWriter) WriteHeader(s int)   { w.status = s }
func (w *benchWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(p)
}

// serve benchmarks one request, the same every iteration.
func serve(b *testing.B, h http.Handler, tmpl *http.Request, body []byte) {
	b.Helper()
	w := &benchWriter{header: http.Header{}}
	do := func() {
		clear(w.header)
		w.status = 0
		w.body.Reset()
		r := *tmpl
		if len(body) > 0 {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		h.ServeHTTP(w, &r)
	}
	do() // the token's facts are cached from here on: a warm instance
	if w.status < 200 || w.status > 299 {
		b.Skipf("answered %d: %s", w.status, w.body.String())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		do()
	}
}

func eventRequest(b *testing.B, ev Event) (*http.Request, []byte) {
	b.Helper()
	r, err := ev.Request("http://api.local")
	if err != nil {
		b.Fatal(err)
	}
	body, err := ev.BodyBytes()
	if err != nil {
		b.Fatal(err)
	}
	r.RequestURI = r.URL.RequestURI()
	return r, body
}

// BenchmarkOperations runs each operation's sample event through the whole
// pipeline and its handler, with DynamoDB answered at once by the Stub: the
// cost of the code itself on a warm instance.
//
//	go test -run '^$' -bench Operations -benchmem ./tools/perf/
func BenchmarkOperations(b *testing.B) {
	h := stubServer(b)
	events, err := ReadEvents(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	for _, ev := range events {
		name := strings.TrimSuffix(strings.TrimPrefix(ev.File, "events/"), ".json")
		b.Run(name, func(b *testing.B) {
			r, body := eventRequest(b, ev)
			serve(b, h, r, body)
		})
	}
}

// BenchmarkListContactsPage lists pages of 10 to 100 contacts (of 300):
// the cost should grow linearly with the page.
func BenchmarkListContactsPage(b *testing.B) {
	h := stubServer(b)
	for _, size := range []int{10, 25, 50, 100} {
		b.Run(fmt.Sprintf("limit=%d", size), func(b *testing.B) {
			q := url.Values{"locationId": {demo.AccountAlpha}, "limit": {fmt.Sprint(size)}}
			r, _ := http.NewRequest("GET", "http://api.local/contacts/?"+q.Encode(), http.NoBody)
			r.RequestURI = r.URL.RequestURI()
			r.Header.Set("Authorization", "Bearer "+demo.Tokens[0].Value())
			r.Header.Set("Version", "2021-07-28")
			r.Header.Set("Accept", "application/json")
			serve(b, h, r, nil)
		})
	}
}
