package campaigns

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

type listResponse struct {
	Campaigns []Campaign `json:"campaigns"`
}

type listRequest struct {
	locationID string
	// status is "" (every campaign) or one of Statuses. Any other value is
	// refused rather than answered with an empty list: no campaign can have
	// it, so it is a client's mistake (often a typo) worth naming.
	status string
}

func parseList(q httpio.Query, v *validate.Errors) listRequest {
	req := listRequest{locationID: q.RequiredID("locationId")}
	if q.Has("status") {
		req.status = q.String("status")
		v.OneOf("status", req.status, Statuses...)
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
	resp := listResponse{Campaigns: []Campaign{}}
	for _, c := range all {
		if req.status == "" || c.Status == req.status {
			resp.Campaigns = append(resp.Campaigns, c)
		}
	}
	return httpio.WriteJSON(w, http.StatusOK, resp)
}
