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

// zoneRequest is the public API's UpdateShippingZoneDto: every property is
// optional, and only those sent change.
type zoneRequest struct {
	altFields
	Name httpio.Field[string] `json:"name"`
	// Countries replaces the zone's whole list when sent. Its items are
	// decoded one by one so that every error names its index.
	Countries httpio.Field[[]json.RawMessage] `json:"countries"`

	change zoneChange // what the request changes, once checked
}

type countryInput struct {
	// Code is declared a number in the public API but its values are text.
	Code   *string            `json:"code"`
	States *[]json.RawMessage `json:"states"`
}

type stateInput struct {
	Code *string `json:"code"`
}

// zoneChange is a checked request: nil fields stay as they are.
type zoneChange struct {
	name      *string
	countries []Country
}

// zoneView is a zone as the update answers it: ShippingZoneSchema, with the
// zone's rates.
type zoneView struct {
	ID            string    `json:"_id"`
	AltID         string    `json:"altId"`
	AltType       string    `json:"altType"`
	Name          string    `json:"name"`
	Countries     []Country `json:"countries"`
	ShippingRates []Rate    `json:"shippingRates"`
	CreatedAt     string    `json:"createdAt"`
	UpdatedAt     string    `json:"updatedAt"`
}

// check records every rule the request breaks and keeps what it changes in
// req.change.
func (req *zoneRequest) check(v *validate.Errors) {
	req.altFields.check(v)
	req.change = parseZone(*req, v)
}

func parseZone(req zoneRequest, v *validate.Errors) zoneChange {
	var c zoneChange
	if req.Name.Set {
		if name, ok := req.Name.Value(); !ok {
			v.Add("name must not be null")
		} else {
			name = strings.TrimSpace(name)
			checkName(v, "name", name)
			c.name = &name
		}
	}
	if req.Countries.Set {
		if raws, ok := req.Countries.Value(); !ok {
			v.Add("countries must not be null")
		} else {
			c.countries = parseCountries(raws, v)
		}
	}
	return c
}

func parseCountries(raws []json.RawMessage, v *validate.Errors) []Country {
	switch {
	case len(raws) == 0:
		v.Add("countries must list at least one country")
		return nil
	case len(raws) > len(validate.CountryCodes):
		v.Addf("countries must list at most %d countries", len(validate.CountryCodes))
		return nil
	}
	countries := make([]Country, 0, len(raws))
	seen := map[string]int{}
	states := 0
	for i, raw := range raws {
		f := fmt.Sprintf("countries[%d]", i)
		var in countryInput
		if err := httpio.DecodeValue(raw, f, &in); err != nil {
			v.Merge(err)
			continue
		}
		// A zone is one storage item: bounding the states of the whole zone
		// by the number of distinct state codes keeps it a few KB, where
		// every country listing hundreds would pass DynamoDB's 400 KB.
		if in.States != nil {
			if states += len(*in.States); states > len(stateCodes) {
				v.Addf("countries must list at most %d states in all", len(stateCodes))
				return nil
			}
		}
		c := Country{States: []State{}}
		if in.Code != nil {
			c.Code = *in.Code
		}
		statesOK := true
		if in.States != nil {
			if len(*in.States) > len(stateCodes) {
				v.Addf("%s.states must list at most %d states", f, len(stateCodes))
				continue
			}
			for j, rawState := range *in.States {
				var s stateInput
				if err := httpio.DecodeValue(rawState, fmt.Sprintf("%s.states[%d]", f, j), &s); err != nil {
					v.Merge(err)
					statesOK = false
					continue
				}
				if s.Code == nil {
					s.Code = new(string)
				}
				c.States = append(c.States, State{Code: *s.Code})
			}
		}
		checkCountry(v, i, c, seen, statesOK)
		countries = append(countries, c)
	}
	return countries
}

// apply returns the zone with the change applied (new slices: the stored
// zone is left as it is for the comparison that skips no-op writes).
func (c zoneChange) apply(z Zone) Zone {
	if c.name != nil {
		z.Name = *c.name
	}
	if c.countries != nil {
		z.Countries = c.countries
	}
	return z
}

func (h *handler) updateZone(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	zoneID := in.HexID("shippingZoneId")
	var body zoneRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.account())
	if err != nil {
		return err
	}
	change, ctx := body.change, r.Context()

	// The zone is looked up in the caller's partition only: another
	// account's zone is not found. Its rates come with it, in one read.
	zone, rates, err := h.store.UpdateZone(ctx, p.AccountID, zoneID, h.clock.Now(),
		func(z Zone) (Zone, error) { return change.apply(z), nil })
	if err != nil {
		return updateError(err, apierror.NotFound("Shipping zone %s was not found", zoneID))
	}
	return httpio.WriteJSON(w, http.StatusOK, updateResponse[zoneView]{
		Status:  true,
		Message: "Shipping zone updated",
		Data: zoneView{
			ID: zone.ID, AltID: zone.AltID, AltType: zone.AltType, Name: zone.Name, Countries: zone.Countries,
			ShippingRates: rates, CreatedAt: zone.CreatedAt, UpdatedAt: zone.UpdatedAt,
		},
	})
}
