package metrics

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"sync"
)

// Summary adds up the metrics of EMF lines as CloudWatch would extract
// them: per namespace, dimension set and dimension values, each metric's
// sample count, sum and maximum. The local server shows it (GET
// /_local/metrics) so that what a deployment would graph can be seen
// without one. Write takes whole JSON lines, as a slog handler writes them.
type Summary struct {
	mu      sync.Mutex
	entries map[string]*SummaryEntry
}

// SummaryEntry is one metric series' figures.
type SummaryEntry struct {
	Namespace  string            `json:"namespace"`
	Dimensions map[string]string `json:"dimensions"`
	Metrics    map[string]*Stat  `json:"metrics"`
}

// Stat is a metric's samples in one series.
type Stat struct {
	Unit    Unit    `json:"unit,omitempty"`
	Samples int     `json:"samples"`
	Sum     float64 `json:"sum"`
	Max     float64 `json:"max"`
}

// NewSummary is an empty summary.
func NewSummary() *Summary { return &Summary{entries: map[string]*SummaryEntry{}} }

// Write reads each JSON line of p and adds up the metrics of those that
// carry an `_aws` member; other lines are passed over. It never fails, so
// that a log writer teed into it is never held up.
func (s *Summary) Write(p []byte) (int, error) {
	for _, line := range bytes.Split(p, []byte("\n")) {
		if bytes.Contains(line, []byte(`"_aws"`)) {
			s.add(line)
		}
	}
	return len(p), nil
}

// emfLine is a line's metric directives and its root members.
type emfLine struct {
	AWS struct {
		CloudWatchMetrics []struct {
			Namespace  string
			Dimensions [][]string
			Metrics    []struct {
				Name string
				Unit Unit
			}
		}
	} `json:"_aws"`
}

func (s *Summary) add(line []byte) {
	var l emfLine
	var root map[string]any
	if json.Unmarshal(line, &l) != nil || json.Unmarshal(line, &root) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range l.AWS.CloudWatchMetrics {
		for _, set := range d.Dimensions {
			dims := map[string]string{}
			key := []string{d.Namespace}
			for _, name := range set {
				v, _ := root[name].(string)
				dims[name] = v
				key = append(key, name+"="+v)
			}
			k := strings.Join(key, "\x00")
			e := s.entries[k]
			if e == nil {
				e = &SummaryEntry{Namespace: d.Namespace, Dimensions: dims, Metrics: map[string]*Stat{}}
				s.entries[k] = e
			}
			for _, m := range d.Metrics {
				v, ok := root[m.Name].(float64)
				if !ok {
					continue
				}
				st := e.Metrics[m.Name]
				if st == nil {
					st = &Stat{Unit: m.Unit, Max: v}
					e.Metrics[m.Name] = st
				}
				st.Samples++
				st.Sum += v
				st.Max = max(st.Max, v)
			}
		}
	}
}

// Entries are the series so far, in the order of their dimension values.
func (s *Summary) Entries() []SummaryEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.entries))
	for k := range s.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]SummaryEntry, 0, len(keys))
	for _, k := range keys {
		e := s.entries[k]
		c := SummaryEntry{Namespace: e.Namespace, Dimensions: e.Dimensions, Metrics: map[string]*Stat{}}
		for name, st := range e.Metrics {
			cp := *st
			c.Metrics[name] = &cp
		}
		out = append(out, c)
	}
	return out
}

// Find is the series of exactly these dimension values; nil when none.
func (s *Summary) Find(dims map[string]string) *SummaryEntry {
	for _, e := range s.Entries() {
		if len(e.Dimensions) != len(dims) {
			continue
		}
		match := true
		for k, v := range dims {
			if e.Dimensions[k] != v {
				match = false
			}
		}
		if match {
			return &e
		}
	}
	return nil
}
