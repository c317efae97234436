package main

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/bizplatform/api/shared/metrics"
)

// metricsPath is where the local server shows the metrics its log lines
// carry, added up as CloudWatch would extract them (docs/local-server.md).
const metricsPath = "/_local/metrics"

// teeMetrics returns the log writer that also adds each metric line to a
// summary, and the summary.
func teeMetrics(logOut io.Writer) (io.Writer, *metrics.Summary) {
	summary := metrics.NewSummary()
	return io.MultiWriter(logOut, summary), summary
}

// mountMetrics serves the summary at metricsPath: one JSON object per
// series (namespace, dimensions, and each metric's samples, sum and max).
func mountMetrics(pages *http.ServeMux, summary *metrics.Summary) {
	pages.HandleFunc("GET "+metricsPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"series": summary.Entries()})
	})
}
