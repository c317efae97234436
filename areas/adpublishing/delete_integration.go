package adpublishing

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// deleteIntegrationRequest is the public API's LocationIdBodyDTO.
type deleteIntegrationRequest struct {
	LocationID *string `json:"locationId"`
}

// check records every rule the request breaks.
func (req *deleteIntegrationRequest) check(v *validate.Errors) {
	if v.Required("locationId", req.LocationID) {
		v.ID("locationId", *req.LocationID)
	}
}

// deleteIntegrationResponse: the public API shows no body; this one says
// plainly that the integration was removed.
type deleteIntegrationResponse struct {
	Success bool `json:"success"`
}

func (h *handler) deleteSocialIntegration(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body deleteIntegrationRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.LocationID)
	if err != nil {
		return err
	}
	deleted, err := h.store.DeleteSocialIntegration(r.Context(), p.AccountID, h.clock.Now())
	if err != nil {
		return err
	}
	if !deleted {
		return apierror.NotFound("This account has no social ad network integration to remove")
	}
	return httpio.WriteJSON(w, http.StatusOK, deleteIntegrationResponse{Success: true})
}
