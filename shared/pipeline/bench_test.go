package pipeline_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// BenchmarkAuthenticatedRequest measures a whole request through the
// pipeline (headers, token, admission, scope, a trivial handler) against
// DynamoDB Local on loopback, and reports the DynamoDB calls it makes.
//
//	go test -run '^$' -bench AuthenticatedRequest ./shared/pipeline/
func BenchmarkAuthenticatedRequest(b *testing.B) {
	table := testenv.NewTable(b)
	counted, calls := testenv.CountingTable(b, table)
	env := testenv.New(b, []app.Area{testenv.PingArea}, testenv.WithTable(counted))
	env.Account(b, "acct1", "co1")
	token, _ := env.Token(b, "acct1")

	req := func() {
		r := httptest.NewRequest("GET", "/ping", nil)
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Version", "2021-07-28")
		w := httptest.NewRecorder()
		env.Server.Handler.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
		_, _ = io.Copy(io.Discard, w.Body)
	}
	req() // warm: the token's facts are cached from here on
	calls.Take()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req()
	}
	b.StopTimer()
	b.ReportMetric(float64(testenv.Total(calls.Take()))/float64(b.N), "dynamo-calls/op")
}

// BenchmarkFailedRequest measures what recording a failure adds
// (failures.go): the same request answered 200, and 403 (a token without
// the scope), whose failure is recorded with one PutItem before the
// handling returns; it reports the DynamoDB calls per request and the
// recording write's own time (record-µs/op).
//
//	go test -run '^$' -bench FailedRequest ./shared/pipeline/
func BenchmarkFailedRequest(b *testing.B) {
	table := testenv.NewTable(b)
	counted, calls := testenv.CountingTable(b, table)
	env := testenv.New(b, []app.Area{testenv.PingArea}, testenv.WithTable(counted))
	env.Account(b, "acct1", "co1")
	allowed, _ := env.Token(b, "acct1", "contacts.readonly")
	refused, _ := env.Token(b, "acct1", "contacts.write")

	for _, tc := range []struct {
		name   string
		token  string
		status int
	}{{"succeeds", allowed, http.StatusOK}, {"fails 403", refused, http.StatusForbidden}} {
		b.Run(tc.name, func(b *testing.B) {
			req := func() {
				r := httptest.NewRequest("GET", "/ping", nil)
				r.Header.Set("Authorization", "Bearer "+tc.token)
				r.Header.Set("Version", "2021-07-28")
				w := httptest.NewRecorder()
				env.Server.Handler.ServeHTTP(w, r)
				if w.Code != tc.status {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
			req() // warm: the token's facts are cached from here on
			calls.Take()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				req()
			}
			b.StopTimer()
			all := calls.TakeCalls()
			var puts time.Duration
			for _, c := range all {
				if c.Op == "PutItem" {
					puts += c.End.Sub(c.Start)
				}
			}
			b.ReportMetric(float64(len(all))/float64(b.N), "dynamo-calls/op")
			b.ReportMetric(float64(puts.Microseconds())/float64(b.N), "record-µs/op")
		})
	}
}
