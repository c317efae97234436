package medias

import (
	"slices"
	"strings"
)

// maxDepth bounds folder nesting: the seed refuses deeper trees, and every
// walk up the parents stops there, so a damaged parent chain cannot loop.
const maxDepth = 32

// pathSeparator joins the names of an entry's folders and its own name into
// its path ("Marketing/Brochures/implants.pdf"). Names never contain it.
const pathSeparator = "/"

// tree is an account's folders by id. Paths are derived from it when
// entries are served rather than stored, so renaming a folder changes the
// path of everything below it at once, with a single write.
type tree struct {
	folders map[string]Entry
}

func newTree(folders []Entry) tree {
	t := tree{folders: make(map[string]Entry, len(folders))}
	for _, f := range folders {
		t.folders[f.ID] = f
	}
	return t
}

// hasFolder reports whether the account has a folder with that id.
func (t tree) hasFolder(id string) bool {
	_, ok := t.folders[id]
	return ok
}

// ancestors returns the ids of e's folders, innermost first. A parent that
// is not a known folder ends the chain there.
func (t tree) ancestors(e Entry) []string {
	var ids []string
	for id := e.ParentID; id != "" && len(ids) < maxDepth; {
		f, ok := t.folders[id]
		if !ok {
			break
		}
		ids = append(ids, id)
		id = f.ParentID
	}
	return ids
}

// path returns e's path: its folders' names and its own, outermost first.
func (t tree) path(e Entry) string {
	up := t.ancestors(e)
	names := make([]string, 0, len(up)+1)
	for _, id := range slices.Backward(up) {
		names = append(names, t.folders[id].Name)
	}
	return strings.Join(append(names, e.Name), pathSeparator)
}

// within reports whether e lies somewhere below folder id.
func (t tree) within(e Entry, id string) bool {
	return slices.Contains(t.ancestors(e), id)
}
