package portal

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/failures"
)

// view is what every page's template gets.
type view struct {
	Title   string
	Person  *identity.Person // nil when signed out
	CSRF    string           // the session's, or the sign-in form's
	Account *accounts.Account
	Notice  string
	Errors  []string
	// Problem leads the list of Errors ("" for a form's: nothing was
	// changed, correct the following).
	Problem string
	// Invalid names each field an error is about (its element id) with its
	// message, which the page shows beside the field and ties to it
	// (aria-invalid, aria-describedby).
	Invalid map[string]string
	Data    any // the page's own
}

// fieldProblem is what is wrong with one field of a form ("" for the form
// as a whole).
type fieldProblem struct{ Field, Message string }

// withProblems sets the view's errors, and its invalid fields, from
// problems.
func (v *view) withProblems(problems []fieldProblem) *view {
	for _, pr := range problems {
		v.Errors = append(v.Errors, pr.Message)
		if pr.Field == "" {
			continue
		}
		if v.Invalid == nil {
			v.Invalid = map[string]string{}
		}
		if v.Invalid[pr.Field] != "" {
			v.Invalid[pr.Field] += " "
		}
		v.Invalid[pr.Field] += pr.Message
	}
	return v
}

var templateFuncs = template.FuncMap{
	"when":    formatTime,
	"minute":  formatMinute,
	"base":    func() string { return Base },
	"account": accountPath,
	"join":    strings.Join,
	// words writes an audit action as words: "webhook added".
	"words": func(s string) string { return strings.ReplaceAll(s, "-", " ") },
	"scope": scopeHTML,
	"scopeCell": func(s scopeSummary, name string) scopeCell {
		return scopeCell{Summary: s, Name: name}
	},
	"tokenTable": func(v *view, rows []tokenRow, id, caption string) tokenTable {
		return tokenTable{Account: v.Account, Rows: rows, ID: id, Caption: caption}
	},
	// The spans the pages tell, each written from its constant (retried:
	// the portal's schedule's, parsePages).
	"retried":         func() string { return clock.Span(deliveries.GiveUp) },
	"kept":            func() string { return clock.Span(events.Lifetime) },
	"failuresKept":    func() string { return clock.Span(failures.Retention) },
	"rotationGrace":   func() string { return clock.Span(auth.RotationGrace) },
	"rotationAdvised": func() string { return clock.Span(RotationAdvised) },
}

// scopeHTML writes a scope so that a line breaks only after its dots, never
// at a hyphen inside a part (accounts.agency-accounts.manage must not read
// as two scopes); <wbr> adds nothing to copied text.
func scopeHTML(scope string) template.HTML {
	parts := strings.Split(scope, ".")
	for i, part := range parts {
		parts[i] = `<span class="seg">` + template.HTMLEscapeString(part) + `</span>`
	}
	return template.HTML(strings.Join(parts, ".<wbr>"))
}

// tokenTable is a table of tokens of the API settings page.
type tokenTable struct {
	Account *accounts.Account
	Rows    []tokenRow
	ID      string // the table's, unique on the page
	Caption string
}

// formatTime writes a stored RFC 3339 time for people: to the minute, UTC.
func formatTime(s string) string {
	if s == "" {
		return ""
	}
	t := clock.Parse(s)
	if t.IsZero() {
		return s
	}
	return t.Format("2006-01-02 15:04 UTC")
}

func formatMinute(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

func accountPath(accountID string) string { return Base + "/accounts/" + accountID }

// parsePages parses each page with the layout: page name -> template. Its
// pages tell the deliveries' retries of schedule s.
func parsePages(s deliveries.Schedule) (map[string]*template.Template, error) {
	funcs := maps.Clone(templateFuncs)
	funcs["retried"] = func() string { return clock.Span(s.GiveUp) }
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	files, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(templateFiles, f)
		if err != nil {
			return nil, fmt.Errorf("page %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// render writes a page with the status. It renders into a buffer first, so
// a template failure is a clean 500 rather than half a page.
func (p *Portal) render(w http.ResponseWriter, status int, page string, v *view) {
	var buf bytes.Buffer
	t := p.pages[page]
	if t == nil {
		http.Error(w, "page template missing", http.StatusInternalServerError)
		return
	}
	if err := t.ExecuteTemplate(&buf, "layout.html", v); err != nil {
		p.logger.Error("render page", "page", page, "error", err.Error())
		http.Error(w, "The page could not be shown.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
