package medias

import (
	"net/http"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/validate"
)

type renameRequest struct {
	Name    *string `json:"name"`
	AltType *string `json:"altType"`
	AltID   *string `json:"altId"`

	name string // the new name, trimmed, once checked
}

type renameResponse struct {
	Updated bool   `json:"updated"`
	TraceID string `json:"traceId"`
}

// check records every rule the request breaks and keeps the new name in
// req.name.
func (req *renameRequest) check(v *validate.Errors) {
	if req.Name != nil {
		req.name = strings.TrimSpace(*req.Name)
	}
	if msg := nameProblem("name", req.name); msg != "" {
		v.Add(msg)
	}
	v.Alt(req.AltID, req.AltType)
}

// rename gives a file or folder of the caller's account a new name. Only the
// entry's own item changes: paths below a renamed folder are derived from
// the names when served, so they follow at once.
func (h *handler) rename(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	id := in.ID("id")
	var body renameRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.AltID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// The entry is looked up in the token's account only, so another
	// account's entry is indistinguishable from a missing one.
	updated, err := h.store.Rename(ctx, p.AccountID, id, body.name, h.clock.Now())
	if err != nil {
		return err
	}
	if !updated {
		return apierror.NotFound("File or folder %s was not found", id)
	}
	return httpio.WriteJSON(w, http.StatusOK, renameResponse{Updated: true, TraceID: httpserve.RequestID(ctx)})
}
