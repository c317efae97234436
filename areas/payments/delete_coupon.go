package payments

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/pipeline"
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

// check checks the request's rules and returns the account it names.
func (req *deleteCouponRequest) check(v *validate.Errors) *string {
	v.Alt(req.AltID, req.AltType)
	if req.ID == nil {
		v.Add("id is required")
	} else {
		v.ID("id", *req.ID)
	}
	return req.AltID
}

// deleteCoupon permanently deletes a coupon of the caller's account.
func (h *handler) deleteCoupon(w http.ResponseWriter, r *http.Request) error {
	req, p, err := request.Body(r, (*deleteCouponRequest).check)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// The coupon is looked up in the caller's partition only, so another
	// account's coupon is indistinguishable from a missing one. The
	// operation lists 422 as its only status, so a missing coupon is 422.
	deleted, err := h.store.DeleteCoupon(ctx, p.AccountID, *req.ID)
	if err != nil {
		return err
	}
	if !deleted {
		return apierror.Invalid("id " + *req.ID + " does not name a coupon of this account")
	}
	return httpio.WriteJSON(w, http.StatusOK, deleteCouponResponse{Success: true, TraceID: pipeline.RequestID(ctx)})
}
