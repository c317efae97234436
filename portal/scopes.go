package portal

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/scopes"
)

// scopeGroup is one group of the generate form's scope checkboxes: an area
// of the API with the scopes its operations need, or the rest of the
// vocabulary.
type scopeGroup struct {
	Title  string
	Other  bool // the scopes that unlock no operation yet
	Scopes []scopeChoice
	// Withheld are the area's scopes a private token can never use, each
	// with the reason the form gives instead of its checkbox.
	Withheld []string
}

type scopeChoice struct {
	ID         string // the checkbox's element id
	Scope      string
	Operations []string // "GET /contacts/", the operations it unlocks
}

// DefaultScope is the scope a new token's form suggests.
const DefaultScope = "contacts.readonly"

// scopeGroups are built once from the operations table and the scope
// vocabulary: per area (in operations.Areas order) each scope its
// operations need with the operations it unlocks for a private token (the
// form makes only those), then every other scope. A scope a private token
// can never use is not offered; its area says why.
var scopeGroups = sync.OnceValue(func() []scopeGroup {
	var groups []scopeGroup
	placed := map[string]bool{}
	n := 0
	for _, area := range operations.Areas {
		g := scopeGroup{Title: areaTitle(area)}
		for _, op := range operations.OfArea(area) {
			if placed[op.Scope] {
				continue
			}
			placed[op.Scope] = true
			if why := unusable(op.Scope, auth.KindPrivate); why != "" {
				g.Withheld = append(g.Withheld, why)
				continue
			}
			n++
			g.Scopes = append(g.Scopes, scopeChoice{ID: fmt.Sprintf("scope-%d", n), Scope: op.Scope, Operations: unlocks(op.Scope, auth.KindPrivate)})
		}
		if len(g.Scopes) > 0 || len(g.Withheld) > 0 {
			groups = append(groups, g)
		}
	}
	other := scopeGroup{Title: "Other scopes", Other: true}
	for _, s := range scopes.All() {
		if !placed[s] {
			n++
			other.Scopes = append(other.Scopes, scopeChoice{ID: fmt.Sprintf("scope-%d", n), Scope: s})
		}
	}
	return append(groups, other)
})

// areaTitle is "Custom fields" for "custom-fields".
func areaTitle(area string) string {
	words := strings.ReplaceAll(area, "-", " ")
	if words == "voice ai" {
		return "Voice AI"
	}
	return strings.ToUpper(words[:1]) + words[1:]
}

// scopeForm is the generate form's scope part: the groups, and which
// scopes are ticked.
type scopeForm struct {
	Groups  []scopeGroup
	Checked map[string]bool
}

func newScopeForm(checked []string) scopeForm {
	m := map[string]bool{}
	for _, s := range checked {
		m[s] = true
	}
	return scopeForm{Groups: scopeGroups(), Checked: m}
}

// anyOtherChecked tells whether a ticked scope is in the folded group, so
// the page opens it.
func (f scopeForm) AnyOtherChecked() bool {
	for _, g := range f.Groups {
		if g.Other && slices.ContainsFunc(g.Scopes, func(c scopeChoice) bool { return f.Checked[c.Scope] }) {
			return true
		}
	}
	return false
}

// unlocks is the operations ("GET /contacts/") scope unlocks for a token
// of kind: a marketplace-only operation unlocks nothing for a private
// token.
func unlocks(scope, kind string) []string {
	var ids []string
	for _, op := range operations.All {
		if op.Scope == scope && (!op.MarketplaceOnly || kind == auth.KindMarketplace) {
			ids = append(ids, op.ID())
		}
	}
	return ids
}

// unusable says why a token of kind can never use scope, or "" when it can
// (or when the scope is one of those no operation needs yet): a scope whose
// every operation accepts only marketplace apps' tokens is of no use to a
// private token.
func unusable(scope, kind string) string {
	var ids []string
	for _, op := range operations.All {
		if op.Scope != scope {
			continue
		}
		if !op.MarketplaceOnly || kind == auth.KindMarketplace {
			return ""
		}
		ids = append(ids, op.ID())
	}
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf("%s is of no use to a private token: %s accepts only marketplace apps' tokens.", scope, strings.Join(ids, ", "))
}

// scopeUse is a scope with the operations it unlocks.
type scopeUse struct {
	Scope      string
	Operations []string
}

// scopeSummary says what a token's scopes let it do: every scope said as
// such; otherwise the scopes that unlock operations here first, with them,
// and the rest folded and counted.
type scopeSummary struct {
	// Every is true when the token holds every scope its kind can use.
	Every bool
	// Count is how many scopes the token holds; Operations how many
	// operations they let it call.
	Count, Operations int
	// Shown are the first scopes that unlock an operation, Folded the
	// others that do (all of them when Every), in the operations' order.
	Shown, Folded []scopeUse
	// Idle are the scopes that unlock no operation for the token's kind.
	Idle []string
	Kind string
}

// FoldedCount is how many scopes the summary folds away.
func (s scopeSummary) FoldedCount() int { return len(s.Folded) + len(s.Idle) }

// summarize sums up the scopes a token of kind holds.
func summarize(held []string, kind string) scopeSummary {
	has := map[string]bool{}
	for _, s := range held {
		has[s] = true
	}
	sum := scopeSummary{Count: len(has), Kind: kind, Every: true}
	for _, s := range scopes.All() {
		if !has[s] && unusable(s, kind) == "" {
			sum.Every = false
			break
		}
	}
	var uses []scopeUse
	placed := map[string]bool{}
	for _, op := range operations.All {
		if !has[op.Scope] || placed[op.Scope] {
			continue
		}
		placed[op.Scope] = true
		if ops := unlocks(op.Scope, kind); len(ops) > 0 {
			uses = append(uses, scopeUse{Scope: op.Scope, Operations: ops})
			sum.Operations += len(ops)
		}
	}
	for _, s := range held {
		if !slices.ContainsFunc(uses, func(u scopeUse) bool { return u.Scope == s }) && !slices.Contains(sum.Idle, s) {
			sum.Idle = append(sum.Idle, s)
		}
	}
	if sum.Every {
		sum.Folded = uses
	} else {
		sum.Shown = uses[:min(scopesShown, len(uses))]
		sum.Folded = uses[len(sum.Shown):]
	}
	return sum
}

// scopesShown is how many scopes that unlock operations a token's row
// shows before folding the rest.
const scopesShown = 4

// scopeCell is what the scope-summary template gets: the summary and the
// name of what holds the scopes (for the folding control's name).
type scopeCell struct {
	Summary scopeSummary
	Name    string
}
