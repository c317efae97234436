package scopes

import (
	"cmp"
	"slices"
	"strings"
)

// Nearest returns up to n scopes of the vocabulary that s (not one of them)
// most likely meant, nearest first: those a few edits away (a typo) and
// those of the same resource (the part before the first '.' or '/', as in
// contacts.everything for contacts.readonly). Nearer means fewer edits,
// then a longer common prefix. A string far longer than any scope is
// nobody's typo: it gets none.
func Nearest(s string, n int) []string {
	if len(s) > 128 {
		return nil
	}
	type candidate struct {
		scope          string
		edits, sharing int
	}
	resource, _, _ := strings.Cut(s, ".")
	resource, _, _ = strings.Cut(resource, "/")
	typos := max(2, len(s)/4)
	var near []candidate
	for _, k := range All() {
		c := candidate{scope: k, edits: editDistance(s, k), sharing: commonPrefix(s, k)}
		if c.edits <= typos || (len(resource) >= 3 && strings.HasPrefix(k, resource)) {
			near = append(near, c)
		}
	}
	slices.SortFunc(near, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.edits, b.edits), cmp.Compare(b.sharing, a.sharing), strings.Compare(a.scope, b.scope))
	})
	out := make([]string, 0, min(n, len(near)))
	for _, c := range near[:min(n, len(near))] {
		out = append(out, c.scope)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b in bytes (scopes are
// ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
