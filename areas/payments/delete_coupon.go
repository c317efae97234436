package payments

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/validate"
)

type deleteCouponRequest struct {
	AltID   *string `json:"altId"`
	AltType *string `json:"altType"`
	ID      *string `json:"id"`
}

type deleteCouponResponse struct {
	Success bool   `json:"success"`
	TraceID string `json:"traceId"`
}

// check records every rule the request breaks.
func (req *deleteCouponRequest) check(v *validate.Errors) {
	v.Alt(req.AltID, req.AltType)
	if req.ID == nil {
		v.Add("id is required")
	} else {
		v.ID("id", *req.ID)
	}
}

// deleteCoupon permanently deletes a coupon of the caller's account.
func (h *handler) deleteCoupon(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body deleteCouponRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.AltID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// The coupon is looked up in the caller's partition only, so another
	// account's coupon is indistinguishable from a missing one. The
	// operation lists 422 as its only status, so a missing coupon is 422.
	deleted, err := h.store.DeleteCoupon(ctx, p.AccountID, *body.ID, h.deps.Clock.Now())
	if err != nil {
		return err
	}
	if !deleted {
		return apierror.Invalid("id " + *body.ID + " does not name a coupon of this account")
	}
	return httpio.WriteJSON(w, http.StatusOK, deleteCouponResponse{Success: true, TraceID: httpserve.RequestID(ctx)})
}
