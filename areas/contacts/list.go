package contacts

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Page sizes of the list, as the public API sets them.
const (
	defaultLimit = 20
	maxLimit     = 100
	maxQueryLen  = 100
	maxEpochMs   = 9_999_999_999_999
	maxPage      = 1_000_000_000
)

type listResponse struct {
	Contacts []contactstore.Contact `json:"contacts"`
	// Count is the number of contacts matching the request (all pages),
	// the same figure as meta.total.
	Count int      `json:"count"`
	Meta  listMeta `json:"meta"`
}

// listMeta describes the page. StartAfter and StartAfterID are the cursor of
// the next page (null on the last page): pass them back as query parameters.
type listMeta struct {
	Total        int     `json:"total"`
	CurrentPage  int     `json:"currentPage"`
	NextPage     *int    `json:"nextPage"`
	PrevPage     *int    `json:"prevPage"`
	StartAfterID *string `json:"startAfterId"`
	StartAfter   *int64  `json:"startAfter"`
	NextPageURL  *string `json:"nextPageUrl"`
}

type listRequest struct {
	locationID   string
	limit        int
	startAfterID string
	startAfter   int64
	hasStartMs   bool
	query        string
	// page is the number of the page the cursor starts, as nextPageUrl
	// carries it (0: not given, then it is counted).
	page int
}

func parseList(q httpio.Query, v *validate.Errors) listRequest {
	req := listRequest{
		locationID: q.RequiredID("locationId"),
		limit:      q.Int("limit", defaultLimit, 1, maxLimit),
		query:      strings.TrimSpace(q.String("query")),
	}
	if q.Has("startAfterId") {
		req.startAfterID = q.String("startAfterId")
		v.ID("startAfterId", req.startAfterID)
	}
	if q.Has("startAfter") {
		ms, err := strconv.ParseInt(q.String("startAfter"), 10, 64)
		if v.Check(err == nil && ms >= 0 && ms <= maxEpochMs, "startAfter must be a time in epoch milliseconds") {
			req.startAfter, req.hasStartMs = ms, true
		}
	}
	if q.Has("page") {
		req.page = q.Int("page", 0, 2, maxPage)
		v.Check(req.startAfterID != "" || req.hasStartMs, "page must come with startAfter or startAfterId (the cursor of the page it numbers)")
	}
	v.MaxLen("query", req.query, maxQueryLen)
	return req
}

func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	req := parseList(in.Query(), in.Errors())
	_, err := in.Account(&req.locationID)
	if err != nil {
		return err
	}
	ctx := r.Context()

	cursor := ""
	switch {
	case req.startAfterID != "" && req.hasStartMs:
		cursor = contactstore.OrderKey(req.startAfter, req.startAfterID)
	case req.startAfterID != "":
		key, ok, err := h.store.OrderKeyOf(ctx, req.locationID, req.startAfterID)
		if err != nil {
			return err
		}
		if !ok {
			return apierror.Invalid("startAfterId must name a contact of this account")
		}
		cursor = key
	case req.hasStartMs:
		cursor = contactstore.OrderKey(req.startAfter, contactstore.AfterAllIDs)
	}

	var pg contactstore.PageResult
	total, before := 0, -1
	if req.query != "" {
		found, err := h.store.Search(ctx, contactstore.Search{
			AccountID: req.locationID, Query: req.query, After: cursor, Limit: req.limit,
			CountBefore: cursor != "" && req.page == 0,
		})
		if err != nil {
			return err
		}
		pg, total, before = found.PageResult, found.Total, found.Before
	} else if pg, total, err = h.listPage(ctx, req.locationID, cursor, req.limit); err != nil {
		return err
	}
	// The page number is the count of contacts before the cursor, which
	// grows with the account; nextPageUrl carries it so that a walk
	// through the pages never counts.
	current := 1
	if cursor != "" && req.page > 0 {
		current = req.page
	} else if cursor != "" {
		if before < 0 {
			if before, err = h.store.Count(ctx, req.locationID, cursor); err != nil {
				return err
			}
		}
		current = (before+req.limit-1)/req.limit + 1
	}

	resp := listResponse{Contacts: make([]contactstore.Contact, len(pg.Entries)), Count: total, Meta: listMeta{Total: total, CurrentPage: current}}
	for i, e := range pg.Entries {
		resp.Contacts[i] = present(e.Contact)
	}
	if current > 1 {
		prev := current - 1
		resp.Meta.PrevPage = &prev
	}
	if pg.More {
		next := current + 1
		last := pg.Entries[len(pg.Entries)-1]
		ms := last.AddedMs()
		id := last.Contact.ID
		resp.Meta.NextPage, resp.Meta.StartAfter, resp.Meta.StartAfterID = &next, &ms, &id
		u := nextPageURL(req, ms, id, next)
		resp.Meta.NextPageURL = &u
	}
	return httpio.WriteJSON(w, http.StatusOK, resp)
}

func nextPageURL(req listRequest, ms int64, id string, page int) string {
	q := url.Values{}
	q.Set("locationId", req.locationID)
	q.Set("limit", strconv.Itoa(req.limit))
	q.Set("startAfter", strconv.FormatInt(ms, 10))
	q.Set("startAfterId", id)
	q.Set("page", strconv.Itoa(page))
	if req.query != "" {
		q.Set("query", req.query)
	}
	return fmt.Sprintf("/contacts/?%s", q.Encode())
}

// present is a contact as the list shows it: its lists are always arrays,
// empty rather than null when a contact has none.
func present(c contactstore.Contact) contactstore.Contact {
	if c.Tags == nil {
		c.Tags = []string{}
	}
	if c.CustomFields == nil {
		c.CustomFields = []contactstore.CustomValue{}
	}
	if c.Followers == nil {
		c.Followers = []string{}
	}
	return c
}

// listPage reads a page of the list and the account's total: its counter in
// the search index, read while the page is, or a count when the account is
// not yet indexed (contactstore.Total).
func (h *handler) listPage(ctx context.Context, accountID, cursor string, limit int) (contactstore.PageResult, int, error) {
	type totalRead struct {
		n    int
		kept bool
		err  error
	}
	totalDone := make(chan totalRead, 1)
	go func() {
		n, kept, err := h.store.Total(ctx, accountID)
		totalDone <- totalRead{n, kept, err}
	}()
	pg, err := h.store.ListPage(ctx, contactstore.Page{AccountID: accountID, After: cursor, Limit: limit})
	tr := <-totalDone
	if err != nil {
		return pg, 0, err
	}
	if tr.err != nil {
		return pg, 0, tr.err
	}
	if tr.kept {
		return pg, tr.n, nil
	}
	n, err := h.store.Count(ctx, accountID, "")
	return pg, n, err
}
