package customfields

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// updateBody is the body of PUT /custom-fields/{id} (UpdateCustomFieldsDTO).
type updateBody struct {
	LocationID  *string `json:"locationId"`
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Placeholder *string `json:"placeholder"`
	ShowInForms *bool   `json:"showInForms"`
	// Options is kept raw so each option is decoded on its own and its
	// errors name it (options[2].label), and so that null is told apart
	// from absent.
	Options         json.RawMessage `json:"options"`
	AcceptedFormats *string         `json:"acceptedFormats"`
	MaxFileLimit    *float64        `json:"maxFileLimit"`

	change change // what the body sets, once checked
}

// optionBody is one option of the body (OptionDTO).
type optionBody struct {
	// Key is accepted because the public API declares it, and ignored:
	// keys of existing options never change and new ones are generated.
	Key   *string `json:"key"`
	Label *string `json:"label"`
	URL   *string `json:"url"`
}

// change is a request that passed the rules that need no stored field: what
// it sets. Nil pointers are properties the request leaves alone.
type change struct {
	locationID      string
	name            *string
	description     *string
	placeholder     *string
	showInForms     bool
	options         []optionChange // nil when the request has no options
	acceptedFormats *string
	maxFileLimit    *int
}

// optionChange is one requested option: its label (trimmed) and URL ("" for
// none).
type optionChange struct {
	label string
	url   string
}

type updateResponse struct {
	Field Field `json:"field"`
}

// check checks every rule that holds whatever the stored field is and
// records the violations in v. What the body sets is then in body.change.
func (body *updateBody) check(v *validate.Errors) {
	c := &body.change
	if v.Required("locationId", body.LocationID) && v.ID("locationId", *body.LocationID) {
		c.locationID = *body.LocationID
	}
	if validate.RequiredPresent(v, "showInForms", body.ShowInForms) {
		c.showInForms = *body.ShowInForms
	}
	if body.Name != nil {
		name := strings.TrimSpace(*body.Name)
		if v.Check(name != "", "name must not be empty") && v.MaxLen("name", name, maxNameLen) {
			c.name = &name
		}
	}
	if body.Description != nil && v.MaxLen("description", *body.Description, maxDescriptionLen) {
		c.description = body.Description
	}
	if body.Placeholder != nil && v.MaxLen("placeholder", *body.Placeholder, maxPlaceholderLen) {
		c.placeholder = body.Placeholder
	}
	if body.Options != nil {
		c.options = parseOptions(body.Options, v)
	}
	if body.AcceptedFormats != nil && v.OneOf("acceptedFormats", *body.AcceptedFormats, AcceptedFormats...) {
		c.acceptedFormats = body.AcceptedFormats
	}
	if body.MaxFileLimit != nil {
		n := *body.MaxFileLimit
		if v.Check(n == math.Trunc(n) && n >= 1 && n <= MaxFileLimit,
			fmt.Sprintf("maxFileLimit must be a whole number from 1 to %d", MaxFileLimit)) {
			limit := int(n)
			c.maxFileLimit = &limit
		}
	}
}

// parseOptions checks the options array on its own: an array of at most
// maxOptions objects, each with a non-empty label unique in the array and an
// optional well-formed URL. It returns a non-nil slice (possibly empty).
func parseOptions(raw json.RawMessage, v *validate.Errors) []optionChange {
	out := []optionChange{}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		v.Add("options must be an array of options (send every existing option with any new ones)")
		return out
	}
	var items []json.RawMessage
	if err := httpio.DecodeValue(raw, "options", &items); err != nil {
		v.Merge(err)
		return out
	}
	if !v.Check(len(items) <= maxOptions, fmt.Sprintf("options must hold at most %d options", maxOptions)) {
		return out
	}
	firstAt := map[string]int{}
	for i, item := range items {
		field := fmt.Sprintf("options[%d]", i)
		if bytes.Equal(bytes.TrimSpace(item), []byte("null")) {
			v.Add(field + " must be an object with a label")
			continue
		}
		var o optionBody
		if err := httpio.DecodeValue(item, field, &o); err != nil {
			v.Merge(err)
			continue
		}
		// The key is ignored (keys never change; new ones are derived), but
		// bounded like every string a request carries.
		if o.Key != nil {
			v.MaxLen(field+".key", *o.Key, maxLabelLen)
		}
		var opt optionChange
		if o.Label != nil {
			opt.label = strings.TrimSpace(*o.Label)
		}
		if !v.Check(opt.label != "", field+".label is required and must not be empty") ||
			!v.MaxLen(field+".label", opt.label, maxLabelLen) {
			continue
		}
		if j, dup := firstAt[opt.label]; dup {
			v.Addf("%s.label %q repeats options[%d].label: labels must be unique", field, opt.label, j)
			continue
		}
		firstAt[opt.label] = i
		if o.URL != nil {
			opt.url = strings.TrimSpace(*o.URL)
		}
		if opt.url != "" {
			if !v.MaxLen(field+".url", opt.url, maxURLLen) {
				continue
			}
			v.OutsideURL(field+".url", opt.url)
		}
		out = append(out, opt)
	}
	return out
}

func (h *handler) update(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	id := in.ID("id")
	var body updateBody
	in.Body(&body, body.check)
	p, err := in.Account(body.LocationID)
	if err != nil {
		return err
	}
	c, ctx := body.change, r.Context()

	// Optimistic locking: read the field, apply the change, write it back
	// only if nobody wrote in between; otherwise re-read, re-apply and
	// re-check. Options another update added meanwhile are kept, not taken
	// for removals (see unseenLabels): the labels this request first saw
	// last across attempts.
	now := h.clock.Now()
	var firstLabels map[string]bool
	updated, err := h.store.Update(ctx, p.AccountID, id, now, func(item *fieldRecord) error {
		if firstLabels == nil {
			firstLabels = labelSet(item.Options)
		}
		next, problems := apply(item.Field, unseenLabels(*item, firstLabels, now), c, clock.Timestamp(now))
		if len(problems) > 0 {
			return apierror.Invalid(problems...)
		}
		if sameField(item.Field, next) {
			return storage.ErrNoChange // nothing to write, and no event
		}
		item.RecentOptions = nextRecent(item.RecentOptions, item.Field, next, now)
		item.Field = next
		return nil
	})
	if err != nil {
		return err
	}
	if updated == nil {
		return apierror.NotFound("Custom field %s was not found", id)
	}
	return httpio.WriteJSON(w, http.StatusOK, updateResponse{Field: *updated})
}

// sameField reports whether next differs from cur only by its update time.
func sameField(cur, next Field) bool {
	next.DateUpdated = cur.DateUpdated
	return reflect.DeepEqual(cur, next)
}
