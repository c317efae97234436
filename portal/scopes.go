package portal

import (
	"fmt"
	"slices"
	"strings"
	"sync"

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
// operations need with the operations it unlocks, then every other scope.
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
			var ops []string
			for _, other := range operations.All {
				if other.Scope == op.Scope {
					ops = append(ops, other.ID())
				}
			}
			n++
			g.Scopes = append(g.Scopes, scopeChoice{ID: fmt.Sprintf("scope-%d", n), Scope: op.Scope, Operations: ops})
		}
		if len(g.Scopes) > 0 {
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
