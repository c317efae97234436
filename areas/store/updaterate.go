package store

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// rateRequest is the public API's UpdateShippingRateDto: every property is
// optional, and only those sent change. null removes an optional value
// (description, a condition bound, the carrier fields) and is refused for
// the others.
type rateRequest struct {
	altFields
	Name                httpio.Field[string]  `json:"name"`
	Description         httpio.Field[string]  `json:"description"`
	Currency            httpio.Field[string]  `json:"currency"`
	Amount              httpio.Field[float64] `json:"amount"`
	ConditionType       httpio.Field[string]  `json:"conditionType"`
	MinCondition        httpio.Field[float64] `json:"minCondition"`
	MaxCondition        httpio.Field[float64] `json:"maxCondition"`
	IsCarrierRate       httpio.Field[bool]    `json:"isCarrierRate"`
	ShippingCarrierID   httpio.Field[string]  `json:"shippingCarrierId"`
	PercentageOfRateFee httpio.Field[float64] `json:"percentageOfRateFee"`
	// Services are decoded one by one so that every error names its index.
	ShippingCarrierServices httpio.Field[[]json.RawMessage] `json:"shippingCarrierServices"`

	change rateChange // what the request changes, once checked
}

// check records every rule the request breaks and keeps what it changes in
// req.change. The rules relating fields the request sends together are its
// own; those needing a stored field wait for the rate.
func (req *rateRequest) check(v *validate.Errors) {
	req.altFields.check(v)
	req.change = parseRate(*req, v)
	checkRateConsistency(v, req.change.apply(Rate{}), req.sent)
}

// sent reports whether the request sends field (null counts: it removes a
// value), isCarrierRate with a value.
func (req *rateRequest) sent(field string) bool {
	switch field {
	case "minCondition":
		return req.MinCondition.Set
	case "maxCondition":
		return req.MaxCondition.Set
	case "isCarrierRate":
		return req.IsCarrierRate.Set && !req.IsCarrierRate.Null
	case "shippingCarrierId":
		return req.ShippingCarrierID.Set
	case "percentageOfRateFee":
		return req.PercentageOfRateFee.Set
	case "shippingCarrierServices":
		return req.ShippingCarrierServices.Set
	}
	return false
}

type serviceInput struct {
	Name  *string `json:"name"`
	Value *string `json:"value"`
}

// rateChange is a checked request, as edits to apply to the stored rate.
type rateChange []func(*Rate)

func (c rateChange) apply(r Rate) Rate {
	for _, edit := range c {
		edit(&r)
	}
	return r
}

// parseRate checks every sent property on its own; the rules that relate
// properties are checked on the merged rate (checkRateConsistency).
func parseRate(req rateRequest, v *validate.Errors) rateChange {
	var c rateChange
	required := func(name string, set, null bool) bool {
		if set && null {
			v.Add(name + " must not be null")
		}
		return set && !null
	}
	if name := req.Name.V; required("name", req.Name.Set, req.Name.Null) {
		name = strings.TrimSpace(name)
		checkName(v, "name", name)
		c = append(c, func(r *Rate) { r.Name = name })
	}
	if req.Description.Set {
		d := strings.TrimSpace(req.Description.V) // null: ""
		v.MaxLen("description", d, maxDescriptionLen)
		c = append(c, func(r *Rate) { r.Description = d })
	}
	if cur := req.Currency.V; required("currency", req.Currency.Set, req.Currency.Null) {
		cur = strings.ToUpper(strings.TrimSpace(cur))
		checkCurrency(v, cur)
		c = append(c, func(r *Rate) { r.Currency = cur })
	}
	if amount := req.Amount.V; required("amount", req.Amount.Set, req.Amount.Null) {
		checkNonNegative(v, "amount", amount, "")
		c = append(c, func(r *Rate) { r.Amount = amount })
	}
	if t := req.ConditionType.V; required("conditionType", req.ConditionType.Set, req.ConditionType.Null) {
		checkConditionType(v, t)
		c = append(c, func(r *Rate) { r.ConditionType = t })
	}
	if req.MinCondition.Set {
		n := req.MinCondition.V // null: 0, no minimum
		checkNonNegative(v, "minCondition", n, noBound)
		c = append(c, func(r *Rate) { r.MinCondition = n })
	}
	if req.MaxCondition.Set {
		n := req.MaxCondition.V // null: 0, no maximum
		checkNonNegative(v, "maxCondition", n, noBound)
		c = append(c, func(r *Rate) { r.MaxCondition = n })
	}
	if carrier := req.IsCarrierRate.V; required("isCarrierRate", req.IsCarrierRate.Set, req.IsCarrierRate.Null) {
		c = append(c, func(r *Rate) { r.IsCarrierRate = carrier })
	}
	if req.ShippingCarrierID.Set {
		id := strings.ToLower(req.ShippingCarrierID.V) // null: "", none
		checkCarrierID(v, id)
		c = append(c, func(r *Rate) { r.ShippingCarrierID = id })
	}
	if req.PercentageOfRateFee.Set {
		var pct *float64 // null: none
		if n, ok := req.PercentageOfRateFee.Value(); ok {
			checkNonNegative(v, "percentageOfRateFee", n, "")
			pct = &n
		}
		c = append(c, func(r *Rate) { r.PercentageOfRateFee = pct })
	}
	if req.ShippingCarrierServices.Set {
		services := parseServices(req.ShippingCarrierServices.V, v) // null: none
		c = append(c, func(r *Rate) { r.ShippingCarrierServices = services })
	}
	return c
}

func parseServices(raws []json.RawMessage, v *validate.Errors) []CarrierService {
	if len(raws) > maxServices {
		v.Addf("shippingCarrierServices must list at most %d services", maxServices)
		return nil
	}
	services := make([]CarrierService, 0, len(raws))
	ok := true
	for i, raw := range raws {
		var in serviceInput
		if err := httpio.DecodeValue(raw, fmt.Sprintf("shippingCarrierServices[%d]", i), &in); err != nil {
			v.Merge(err)
			ok = false
			continue
		}
		s := CarrierService{}
		if in.Name != nil {
			s.Name = strings.TrimSpace(*in.Name)
		}
		if in.Value != nil {
			s.Value = strings.TrimSpace(*in.Value)
		}
		services = append(services, s)
	}
	if ok {
		checkServices(v, services)
	}
	return services
}

func (h *handler) updateRate(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	zoneID, rateID := in.HexID("shippingZoneId"), in.HexID("shippingRateId")
	var body rateRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.account())
	if err != nil {
		return err
	}
	change, ctx := body.change, r.Context()

	// The rate's key holds its zone's id, in the caller's partition: a rate
	// of another zone or another account is not found.
	rate, err := h.store.UpdateRate(ctx, p.AccountID, zoneID, rateID, h.clock.Now(),
		func(stored Rate) (Rate, error) {
			next := change.apply(stored)
			var merged validate.Errors
			checkRateConsistency(&merged, next, everyField)
			return next, merged.Err()
		})
	if err != nil {
		return updateError(err, apierror.NotFound("Shipping rate %s of shipping zone %s was not found", rateID, zoneID))
	}
	return httpio.WriteJSON(w, http.StatusOK, updateResponse[Rate]{Status: true, Message: "Shipping rate updated", Data: rate})
}
