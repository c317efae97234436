package portal

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/bizplatform/api/shared/failures"
)

// failuresPageSize is how many failed requests one page lists.
const failuresPageSize = 50

// failureRow is one failed request as the page shows it.
type failureRow struct {
	failures.Failure
	TokenName string // "" when the token is not the account's any more
}

// tokenOption is a token of the account in the page's filter.
type tokenOption struct{ ID, Name string }

// rateLimitedDay is a day's 429 answers, with the hours that had some.
type rateLimitedDay struct {
	Day   string
	Count int
	Hours string // "14:00 (12), 15:00 (3)"
}

type failuresData struct {
	Rows        []failureRow
	Status      string // the filter as given
	Token       string
	Tokens      []tokenOption
	Statuses    []string // the status filter's choices
	Next, First string   // the older page's and the newest page's links; "" when none
	RateLimited []rateLimitedDay
	Limited     int // 429 answers of the week
}

// failuresPage lists the account's failed API requests of the last seven
// days, newest first, filtered by status and token, a page at a time; 429
// answers are counted by day and hour rather than listed.
func (p *Portal) failuresPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	q := r.URL.Query()
	filter := failures.Filter{Status: q.Get("status"), TokenID: q.Get("token")}
	after := q.Get("after")
	list, err := p.tokens.List(r.Context(), v.account.ID)
	if err != nil {
		return err
	}
	names := map[string]string{}
	data := failuresData{Status: filter.Status, Token: filter.TokenID, Statuses: []string{"4xx", "5xx", "400", "401", "403", "404", "409", "413", "415", "422", "500", "503"}}
	for _, info := range list {
		names[info.TokenID] = info.Name
		data.Tokens = append(data.Tokens, tokenOption{info.TokenID, info.Name})
	}
	// Only the account's own tokens and the listing's own cursors enter a
	// key or a filter.
	if _, known := names[filter.TokenID]; !filter.Valid() || filter.TokenID != "" && !known || after != "" && !failures.ValidCursor(after) {
		return errBadFilter
	}
	found, next, err := p.failures.List(r.Context(), v.account.ID, filter, after, failuresPageSize)
	if err != nil {
		return err
	}
	for _, f := range found {
		data.Rows = append(data.Rows, failureRow{Failure: f, TokenName: names[f.TokenID]})
	}
	link := func(after string) string {
		return listLink(accountPath(v.account.ID)+"/failures", map[string]string{"status": filter.Status, "token": filter.TokenID, "after": after})
	}
	if next != "" {
		data.Next = link(next)
	}
	if after != "" {
		data.First = link("")
	}
	counts, err := p.failures.RateLimited(r.Context(), v.account.ID)
	if err != nil {
		return err
	}
	data.RateLimited, data.Limited = byDay(counts)
	p.render(w, http.StatusOK, "failures", &view{Title: "Failed requests", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: data})
	return nil
}

// listLink is a list page's address with its filter and cursor (params'
// non-empty values).
func listLink(path string, params map[string]string) string {
	q := url.Values{}
	for k, val := range params {
		if val != "" {
			q.Set(k, val)
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return path
}

// byDay sums hourly 429 counts (newest first) into days, newest first.
func byDay(counts []failures.HourCount) ([]rateLimitedDay, int) {
	days := map[string]*rateLimitedDay{}
	total := 0
	for _, c := range counts {
		day, hour, _ := strings.Cut(c.Hour, "T")
		d := days[day]
		if d == nil {
			d = &rateLimitedDay{Day: day}
			days[day] = d
		}
		d.Count += c.Count
		total += c.Count
		if d.Hours != "" {
			d.Hours += ", "
		}
		d.Hours += hour + ":00 UTC (" + strconv.Itoa(c.Count) + ")"
	}
	out := make([]rateLimitedDay, 0, len(days))
	for _, d := range days {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Day > out[j].Day })
	return out, total
}
