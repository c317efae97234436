package medias

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Paging and filter bounds of the listing (the contract leaves them open).
const (
	defaultLimit = 20
	maxLimit     = 100
	maxOffset    = 1_000_000
	maxQueryLen  = 255
)

// The accepted values of the listing's enumerated parameters. sortBy names
// the entry fields a listing can be ordered by: its two dates and its name.
var (
	entryTypes = []string{TypeFile, TypeFolder}
	sortFields = []string{"createdAt", "updatedAt", "name"}
	sortOrders = []string{"asc", "desc"}
)

// File is a file or folder as the listing shows it.
type File struct {
	ID       string `json:"_id"`
	AltID    string `json:"altId"`
	AltType  string `json:"altType"`
	Name     string `json:"name"`
	ParentID string `json:"parentId,omitempty"`
	URL      string `json:"url,omitempty"`
	// Path is the names of the entry's folders and its own, joined by "/".
	Path      string `json:"path"`
	Type      string `json:"type"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

type listResponse struct {
	Files []File `json:"files"`
}

type listRequest struct {
	accountID string
	typ       string
	sortBy    string
	desc      bool
	offset    int
	limit     int
	query     string
	parentID  string
	fetchAll  bool
}

func parseList(q httpio.Query, v *validate.Errors) listRequest {
	req := listRequest{
		offset:   q.Int("offset", 0, 0, maxOffset),
		limit:    q.Int("limit", defaultLimit, 1, maxLimit),
		query:    strings.TrimSpace(q.String("query")),
		fetchAll: q.Bool("fetchAll", false),
	}
	req.sortBy = q.OneOf("sortBy", sortFields...)
	req.desc = q.OneOf("sortOrder", sortOrders...) == "desc"
	req.typ = q.OneOf("type", entryTypes...)
	altID, altType := q.String("altId"), q.String("altType")
	v.Alt(&altID, &altType)
	req.accountID = altID
	v.MaxLen("query", req.query, maxQueryLen)
	if q.Has("parentId") {
		req.parentID = q.String("parentId")
		if req.parentID == "" {
			v.Add("parentId must not be empty (leave it out to list the root)")
		} else {
			v.ID("parentId", req.parentID)
		}
	}
	return req
}

// list answers one page of an account's files or folders: those directly in
// a folder (parentId, or the root), or with fetchAll those anywhere below it
// (the whole tree without parentId). The page is cut from the matching
// entries sorted by (sortBy, id), so offset paging over an unchanged folder
// returns every entry exactly once.
func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	req := parseList(in.Query(), in.Errors())
	p, err := in.Account(&req.accountID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	account := p.AccountID
	folders, err := h.store.ofType(ctx, account, TypeFolder)
	if err != nil {
		return err
	}
	t := newTree(folders)
	// A parentId that is no folder of the account (unknown, another
	// account's, or a file) is a 404 rather than an empty list, so a mistyped
	// id is not mistaken for an empty folder.
	if req.parentID != "" && !t.hasFolder(req.parentID) {
		return apierror.NotFound("Folder %s was not found", req.parentID)
	}

	var entries []Entry
	switch {
	case req.typ == TypeFolder:
		entries = folders // already read, for the paths
	case req.fetchAll:
		entries, err = h.store.ofType(ctx, account, req.typ)
	default:
		entries, err = h.store.inFolder(ctx, account, req.typ, req.parentID)
	}
	if err != nil {
		return err
	}
	entries = slices.DeleteFunc(entries, func(e Entry) bool { return !req.selects(t, e) })
	sortEntries(entries, req.sortBy, req.desc)

	page := entries[min(req.offset, len(entries)):min(req.offset+req.limit, len(entries))]
	resp := listResponse{Files: make([]File, len(page))}
	for i, e := range page {
		resp.Files[i] = File{
			ID: e.ID, AltID: e.AltID, AltType: e.AltType, Name: e.Name, ParentID: e.ParentID,
			URL: e.URL, Path: t.path(e), Type: e.Type, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
		}
	}
	return httpio.WriteJSON(w, http.StatusOK, resp)
}

// selects reports whether e belongs in the listing: in the requested folder
// (or below it, with fetchAll) and with a name containing the query.
func (req listRequest) selects(t tree, e Entry) bool {
	switch {
	case req.fetchAll && req.parentID != "":
		if !t.within(e, req.parentID) {
			return false
		}
	case !req.fetchAll:
		if e.ParentID != req.parentID {
			return false
		}
	}
	return req.query == "" || strings.Contains(strings.ToLower(e.Name), strings.ToLower(req.query))
}

// sortEntries orders entries by field, ties broken by id, ascending or
// descending: a total order, so every page boundary is well defined.
// Timestamps are all stored in one fixed-width UTC format, so comparing
// them as strings compares the instants. Names compare case-insensitively
// first, then exactly.
func sortEntries(entries []Entry, field string, desc bool) {
	compare := func(a, b Entry) int {
		switch field {
		case "name":
			return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Name, b.Name))
		case "updatedAt":
			return cmp.Compare(a.UpdatedAt, b.UpdatedAt)
		default:
			return cmp.Compare(a.CreatedAt, b.CreatedAt)
		}
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		c := cmp.Or(compare(a, b), cmp.Compare(a.ID, b.ID))
		if desc {
			return -c
		}
		return c
	})
}
