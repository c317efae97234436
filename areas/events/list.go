package events

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Paging bounds of the listing.
const (
	defaultLimit = 20
	maxLimit     = 100
	// maxCursorLen bounds what is decoded: a cursor holds an account id and
	// a sort key, far below it.
	maxCursorLen = 512
)

type handler struct {
	table *storage.Table
	types []events.Type
}

// names are the handler's event type names.
func (h *handler) names() []string { return events.Names(h.types) }

// readableTypes narrows asked (nil: every type) to the types whose scope
// the holder of scopes may read. Filtering by type rather than by scope
// keeps the Query's filter within DynamoDB's 100 IN operands whatever the
// token holds: the registry is far smaller than the scope vocabulary.
func (h *handler) readableTypes(asked, scopes []string) []string {
	out := []string{}
	for _, typ := range h.types {
		if (asked == nil || slices.Contains(asked, typ.Name)) && events.Readable(scopes, typ.Scope) {
			out = append(out, typ.Name)
		}
	}
	return out
}

type listResponse struct {
	// Events are the bodies exactly as delivered, parsed.
	Events []json.RawMessage `json:"events"`
	Meta   listMeta          `json:"meta"`
}

type listMeta struct {
	// NextCursor is null on the last page.
	NextCursor *string `json:"nextCursor"`
	Count      int     `json:"count"`
}

type listRequest struct {
	accountID string
	filter    events.Filter
	limit     int
	// after is the sort key the page resumes after ("" for the newest).
	after string
}

func (h *handler) parseList(q httpio.Query, v *validate.Errors) listRequest {
	req := listRequest{accountID: q.Required("locationId"), limit: q.Int("limit", defaultLimit, 1, maxLimit)}
	if req.accountID != "" {
		v.ID("locationId", req.accountID)
	}
	if q.Has("type") {
		for _, name := range strings.Split(q.String("type"), ",") {
			name = strings.TrimSpace(name)
			if !slices.Contains(h.names(), name) {
				v.Addf("type must be a comma-separated list of event types, each one of: %s", strings.Join(h.names(), ", "))
				break
			}
			req.filter.Types = append(req.filter.Types, name)
		}
	}
	if q.Has("status") {
		state := q.String("status")
		if v.OneOf("status", state, deliveries.Strings(deliveries.EventStates)...) {
			in := deliveries.EventIn(deliveries.State(state))
			req.filter.Matching = &in
		}
	}
	req.filter.Since = timeParam(q, v, "from")
	req.filter.Until = timeParam(q, v, "to")
	if after := timeParam(q, v, "startAfter"); !after.IsZero() {
		req.filter.StartAfter(after)
	}
	if q.Has("cursor") {
		req.after = decodeCursor(q.String("cursor"), req.accountID, v)
	}
	return req
}

// timeParam reads an optional RFC 3339 time (zero when absent).
func timeParam(q httpio.Query, v *validate.Errors, name string) time.Time {
	if !q.Has(name) {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, q.String(name))
	if err != nil {
		v.Addf("%s must be an RFC 3339 time (2026-01-31T09:30:00Z)", name)
		return time.Time{}
	}
	return t.UTC()
}

// A cursor is the account and the sort key of the last event of a page,
// base64url-encoded: opaque to callers, and tied to its account so that it
// cannot walk another's events.
func encodeCursor(accountID, sortKey string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(accountID + "\n" + sortKey))
}

func decodeCursor(s, accountID string, v *validate.Errors) string {
	const bad = "cursor must be the meta.nextCursor of a previous page of this account's events"
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if len(s) > maxCursorLen || err != nil {
		v.Add(bad)
		return ""
	}
	account, key, ok := strings.Cut(string(raw), "\n")
	if !ok || account != accountID || !strings.HasPrefix(key, "EVENT#") || validate.TextProblem("cursor", key) != "" {
		v.Add(bad)
		return ""
	}
	return key
}

// list answers one page of the account's events that the token's scopes may
// read, newest first. A page costs a bounded read: events.Page queries with
// a Limit and stops after a fixed number of queries.
func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	req := h.parseList(in.Query(), in.Errors())
	p, err := in.Account(&req.accountID)
	if err != nil {
		return err
	}
	req.filter.Types = h.readableTypes(req.filter.Types, p.Scopes)
	var page []events.Recorded
	next := ""
	if len(req.filter.Types) > 0 { // else the token may read no event asked for
		owner := events.Owner{LocationID: p.AccountID}
		page, next, err = events.Page(r.Context(), h.table, owner, req.filter, int32(req.limit), req.after)
		if err != nil {
			return err
		}
	}
	resp := listResponse{Events: make([]json.RawMessage, len(page)), Meta: listMeta{Count: len(page)}}
	for i, ev := range page {
		resp.Events[i] = json.RawMessage(ev.Body)
	}
	if next != "" {
		c := encodeCursor(p.AccountID, next)
		resp.Meta.NextCursor = &c
	}
	return httpio.WriteJSON(w, http.StatusOK, resp)
}
