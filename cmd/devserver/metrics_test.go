package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/metrics/emftest"
)

func TestTheLocalServerShowsTheMetricsItsLogLinesCarry(t *testing.T) {
	logs := &testenv.LogBuffer{}
	logOut, summary := teeMetrics(logs)
	// Every area in one process, as make run serves them; a burst of 3 so
	// that a 429 is cheap.
	env := testenv.New(t, catalog.Areas, testenv.WithLogOutput(logOut), testenv.WithLimits(3, 10*time.Second, 1000), testenv.WithOperationMetrics())
	env.Account(t, "acct1", "co1")
	token, _ := env.Token(t, "acct1", "contacts.readonly", "contacts.write")
	pages := newPages("")
	mountMetrics(pages, summary)
	srv := httptest.NewServer(newSite(pages, env.Server.Handler))
	t.Cleanup(srv.Close)

	do := func(method, path, token string) int {
		req, err := http.NewRequest(method, srv.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Version", "2021-07-28")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, 200, do("GET", "/contacts/?locationId=acct1", token))
	require.Equal(t, 401, do("GET", "/contacts/?locationId=acct1", ""))
	require.Equal(t, 404, do("GET", "/nowhere", token))
	require.Equal(t, 200, do("GET", "/contacts/?locationId=acct1", token))
	require.Equal(t, 200, do("GET", "/contacts/?locationId=acct1", token))
	require.Equal(t, 429, do("GET", "/contacts/?locationId=acct1", token), "the fourth admitted request in the window")

	lines, err := emftest.MetricLines(logs.String())
	require.NoError(t, err, "every metric line is valid EMF")
	require.Len(t, lines, 6, "one metric line per request: by operation (METRICS_BY_OPERATION=true), every line declares")

	resp, err := http.Get(srv.URL + metricsPath)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	var shown struct{ Series []metrics.SummaryEntry }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&shown))
	series := func(dims map[string]string) metrics.SummaryEntry {
		for _, s := range shown.Series {
			if len(s.Dimensions) == len(dims) && s.Dimensions["Function"] == dims["Function"] && s.Dimensions["Operation"] == dims["Operation"] {
				return s
			}
		}
		t.Fatalf("no series %v in %+v", dims, shown.Series)
		return metrics.SummaryEntry{}
	}
	list := series(map[string]string{"Function": "contacts", "Operation": "GET /contacts/"})
	assert.Equal(t, metrics.DefaultNamespace, list.Namespace)
	assert.Equal(t, 5.0, list.Metrics["Requests"].Sum)
	assert.Equal(t, 0.0, list.Metrics["Status5xx"].Sum)
	assert.Equal(t, 5, list.Metrics["Latency"].Samples)
	unmatched := series(map[string]string{"Function": "local", "Operation": "unmatched"})
	assert.Equal(t, 1.0, unmatched.Metrics["Requests"].Sum)
	assert.Greater(t, emftest.Sum(logs.String(), "DynamoDBCalls", map[string]string{"Function": "contacts"}), 5.0, "authentication, admission and the reads, as members")
}
