package pipeline_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

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
