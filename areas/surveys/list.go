package surveys

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Page sizes of the list: default 10 and maximum 50 as the spec sets them;
// the skip maximum is ours.
const (
	defaultLimit = 10
	maxLimit     = 50
	maxSkip      = 100_000
)

// listResponse is a page of the list. Total is the number of surveys
// matching the request (the type filter), on every page, not the page size.
type listResponse struct {
	Surveys []Survey `json:"surveys"`
	Total   int      `json:"total"`
}

type listRequest struct {
	locationID string
	skip       int
	limit      int
	// typ is "" (surveys and folders) or one of Types.
	typ string
}

func parseList(q httpio.Query, v *validate.Errors) listRequest {
	req := listRequest{
		locationID: q.RequiredID("locationId"),
		skip:       q.Int("skip", 0, 0, maxSkip),
		limit:      q.Int("limit", defaultLimit, 1, maxLimit),
	}
	if q.Has("type") {
		req.typ = q.String("type")
		v.OneOf("type", req.typ, Types...)
	}
	return req
}

func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	req := parseList(in.Query(), in.Errors())
	if _, err := in.Account(&req.locationID); err != nil {
		return err
	}
	ctx := r.Context()
	all, err := h.store.List(ctx, req.locationID)
	if err != nil {
		return err
	}
	// Total counts the matches seen so far; the page is the matches numbered
	// skip to skip+limit-1.
	resp := listResponse{Surveys: []Survey{}}
	for _, s := range all {
		if req.typ != "" && s.Type != req.typ {
			continue
		}
		if resp.Total >= req.skip && resp.Total < req.skip+req.limit {
			resp.Surveys = append(resp.Surveys, s)
		}
		resp.Total++
	}
	return httpio.WriteJSON(w, http.StatusOK, resp)
}
