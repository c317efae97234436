package contacts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/validate"
)

// Bounds of a contact's fields. The public API states none; these keep a
// contact item, which every one of its index items repeats, a few KB at
// most.
const (
	maxNameLen        = 100 // firstName, lastName
	maxFullNameLen    = 200 // name
	maxCompanyLen     = 200
	maxAddressLen     = 255
	maxPlaceLen       = 100 // city, state
	maxPostalCodeLen  = 20
	maxWebsiteLen     = 2048
	maxTimezoneLen    = 64
	maxSourceLen      = 100
	maxGenderLen      = 50
	maxEmailLen       = 254
	maxPhoneLen       = 32
	maxTagLen         = 64
	maxCustomFields   = 25
	maxCustomKeyLen   = 100
	maxCustomValueLen = 500
	maxDNDMessageLen  = 200
	maxDNDCodeLen     = 50
	minPhoneDigits    = 7
	maxPhoneDigits    = 15
)

// DND statuses, as the public API names them.
var (
	dndStatuses        = []string{"active", "inactive", "permanent"}
	inboundDNDStatuses = []string{"active", "inactive"}
)

// fieldsBody are the contact fields every contact write takes
// (UpdateContactDto's; CreateContactDto and UpsertContactDto add a few).
// Pointers tell a field left out from one sent.
type fieldsBody struct {
	FirstName          *string            `json:"firstName"`
	LastName           *string            `json:"lastName"`
	Name               *string            `json:"name"`
	Email              *string            `json:"email"`
	Phone              *string            `json:"phone"`
	Address1           *string            `json:"address1"`
	City               *string            `json:"city"`
	State              *string            `json:"state"`
	PostalCode         *string            `json:"postalCode"`
	Website            *string            `json:"website"`
	Timezone           *string            `json:"timezone"`
	DND                *bool              `json:"dnd"`
	DNDSettings        *dndSettingsBody   `json:"dndSettings"`
	InboundDNDSettings *inboundDNDBody    `json:"inboundDndSettings"`
	Tags               *[]string          `json:"tags"`
	CustomFields       *[]customFieldBody `json:"customFields"`
	Source             *string            `json:"source"`
	DateOfBirth        *string            `json:"dateOfBirth"`
	Country            *string            `json:"country"`
	AssignedTo         *string            `json:"assignedTo"`
}

type dndSettingsBody struct {
	Call     *dndSettingBody `json:"Call"`
	Email    *dndSettingBody `json:"Email"`
	SMS      *dndSettingBody `json:"SMS"`
	WhatsApp *dndSettingBody `json:"WhatsApp"`
	GMB      *dndSettingBody `json:"GMB"`
	FB       *dndSettingBody `json:"FB"`
}

type dndSettingBody struct {
	Status  *string `json:"status"`
	Message *string `json:"message"`
	Code    *string `json:"code"`
}

type inboundDNDBody struct {
	All *inboundDNDSettingBody `json:"all"`
}

type inboundDNDSettingBody struct {
	Status  *string `json:"status"`
	Message *string `json:"message"`
}

// customFieldBody is a custom field's value. The public API names the
// field by id (or key) and takes field_value as text, a list or an object
// by the field's type; this API keeps one text value per field, so
// field_value is text, and key is accepted as the public API's alias,
// not stored.
type customFieldBody struct {
	ID         *string         `json:"id"`
	Key        *string         `json:"key"`
	FieldValue json.RawMessage `json:"field_value"`
}

// errTooManyCustomFields refuses values that, with the contact's stored
// ones, would make more than maxCustomFields.
var errTooManyCustomFields = apierror.Invalid(fmt.Sprintf("customFields: a contact has at most %d custom field values; remove some (an empty field_value removes one)", maxCustomFields))

// nullable are the fields a body may send as null, by body kind (the
// published schemas' nullable properties).
var (
	createNullable = []string{"firstName", "lastName", "name", "email", "phone", "address1", "city", "state", "website", "timezone", "dateOfBirth", "companyName"}
	updateNullable = []string{"firstName", "lastName", "name", "email", "phone", "address1", "city", "state", "website", "timezone", "source", "dateOfBirth", "assignedTo"}
)

// readNulls returns the names of the body's top-level properties sent as
// null (a pointer cannot tell them from the ones left out) and puts the
// body back for the reader. A body that is not a JSON object has none: its
// reading says what is wrong with it.
func readNulls(r *http.Request) map[string]bool {
	if r.Body == nil {
		return nil
	}
	raw, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(raw), errReader{err}))
	var top map[string]json.RawMessage
	if err != nil || json.Unmarshal(raw, &top) != nil {
		return nil
	}
	nulls := map[string]bool{}
	for name, v := range top {
		if string(bytes.TrimSpace(v)) == "null" {
			nulls[name] = true
		}
	}
	return nulls
}

// errReader ends a body put back with the error its first reading met (the
// body limit's), or EOF.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// patch is what a body sets, field by field, to apply to a new contact or
// to a stored one.
type patch struct {
	sets []fieldSet
}

type fieldSet struct {
	field string
	set   func(r *contactstore.Record) error
}

func (p *patch) add(field string, set func(r *contactstore.Record) error) {
	p.sets = append(p.sets, fieldSet{field: field, set: set})
}

// sends reports whether the body sets field.
func (p patch) sends(field string) bool {
	return slices.ContainsFunc(p.sets, func(s fieldSet) bool { return s.field == field })
}

// apply sets the body's fields on r, except those of skip. A contact's
// full name follows its first and last names unless the body names it.
func (p patch) apply(r *contactstore.Record, skip []string) error {
	names := false
	for _, s := range p.sets {
		if slices.Contains(skip, s.field) {
			continue
		}
		if err := s.set(r); err != nil {
			return err
		}
		names = names || s.field == "firstName" || s.field == "lastName"
	}
	if names && !p.sends("name") {
		r.ContactName = strings.TrimSpace(r.FirstName + " " + r.LastName)
	}
	return nil
}

// bodyRules reads a body's fields into a patch.
type bodyRules struct {
	v     *validate.Errors
	nulls map[string]bool
	// nullable are the fields that may be null; clear says null clears
	// them (an update) rather than leaving them out (a create).
	nullable []string
	clear    bool
	p        patch
}

// isNull reports whether field was sent as null, recording a violation
// when it may not be.
func (b *bodyRules) isNull(field string) bool {
	if !b.nulls[field] {
		return false
	}
	if !slices.Contains(b.nullable, field) {
		b.v.Addf("%s must not be null", field)
	}
	return true
}

// text reads a one-line text field of at most max characters, trimmed;
// rule, when given, judges the value and returns it as stored (or a
// problem). assign stores it; an empty value is no value (it clears the
// field of a stored contact).
func (b *bodyRules) text(field string, s *string, max int, rule func(string) (string, string), assign func(*contactstore.Record, string)) {
	if b.isNull(field) {
		if b.clear && slices.Contains(b.nullable, field) {
			b.p.add(field, func(r *contactstore.Record) error { assign(r, ""); return nil })
		}
		return
	}
	if s == nil {
		return
	}
	v := strings.TrimSpace(*s)
	if msg := validate.TextProblem(field, v); msg != "" {
		b.v.Add(msg)
		return
	}
	if !b.v.MaxLen(field, v, max) {
		return
	}
	if rule != nil {
		stored, problem := rule(v)
		if problem != "" {
			b.v.Add(field + " " + problem)
			return
		}
		v = stored
	}
	b.p.add(field, func(r *contactstore.Record) error { assign(r, v); return nil })
}

// fields reads the fields every contact write takes.
func (b *bodyRules) fields(f *fieldsBody) {
	type rec = contactstore.Record
	b.text("firstName", f.FirstName, maxNameLen, nil, func(r *rec, v string) { r.FirstName = v })
	b.text("lastName", f.LastName, maxNameLen, nil, func(r *rec, v string) { r.LastName = v })
	b.text("name", f.Name, maxFullNameLen, nil, func(r *rec, v string) { r.ContactName = v })
	b.text("email", f.Email, maxEmailLen, emailRule, func(r *rec, v string) { r.Email = v })
	b.text("phone", f.Phone, maxPhoneLen, phoneRule, func(r *rec, v string) { r.Phone = v })
	b.text("address1", f.Address1, maxAddressLen, nil, func(r *rec, v string) { r.Address1 = v })
	b.text("city", f.City, maxPlaceLen, nil, func(r *rec, v string) { r.City = v })
	b.text("state", f.State, maxPlaceLen, nil, func(r *rec, v string) { r.State = v })
	b.text("postalCode", f.PostalCode, maxPostalCodeLen, nil, func(r *rec, v string) { r.PostalCode = v })
	b.text("website", f.Website, maxWebsiteLen, websiteRule, func(r *rec, v string) { r.Website = v })
	b.text("timezone", f.Timezone, maxTimezoneLen, timezoneRule, func(r *rec, v string) { r.Timezone = v })
	b.text("source", f.Source, maxSourceLen, nil, func(r *rec, v string) { r.Source = v })
	b.text("dateOfBirth", f.DateOfBirth, maxTimezoneLen, birthDateRule, func(r *rec, v string) { r.DateOfBirth = v })
	b.text("country", f.Country, 2, countryRule, func(r *rec, v string) { r.Country = v })
	b.text("assignedTo", f.AssignedTo, validate.MaxIDLength, idRule, func(r *rec, v string) { r.AssignedTo = v })
	if !b.isNull("dnd") && f.DND != nil {
		dnd := *f.DND
		b.p.add("dnd", func(r *rec) error { r.DND = dnd; return nil })
	}
	if !b.isNull("dndSettings") && f.DNDSettings != nil {
		b.dndSettings(f.DNDSettings)
	}
	if !b.isNull("inboundDndSettings") && f.InboundDNDSettings != nil {
		b.inboundDND(f.InboundDNDSettings)
	}
	if !b.isNull("tags") && f.Tags != nil {
		if tags, ok := readTags(b.v, "tags", *f.Tags, false); ok {
			b.p.add("tags", func(r *rec) error { r.Tags = tags; return nil })
		}
	}
	if !b.isNull("customFields") && f.CustomFields != nil {
		b.customFields(*f.CustomFields)
	}
}

// dndSettings reads the channels sent; each replaces the stored channel's
// setting, the others are kept.
func (b *bodyRules) dndSettings(d *dndSettingsBody) {
	type channel struct {
		name string
		body *dndSettingBody
		to   func(*contactstore.DNDSettings) **contactstore.DNDSetting
	}
	channels := []channel{
		{"Call", d.Call, func(s *contactstore.DNDSettings) **contactstore.DNDSetting { return &s.Call }},
		{"Email", d.Email, func(s *contactstore.DNDSettings) **contactstore.DNDSetting { return &s.Email }},
		{"SMS", d.SMS, func(s *contactstore.DNDSettings) **contactstore.DNDSetting { return &s.SMS }},
		{"WhatsApp", d.WhatsApp, func(s *contactstore.DNDSettings) **contactstore.DNDSetting { return &s.WhatsApp }},
		{"GMB", d.GMB, func(s *contactstore.DNDSettings) **contactstore.DNDSetting { return &s.GMB }},
		{"FB", d.FB, func(s *contactstore.DNDSettings) **contactstore.DNDSetting { return &s.FB }},
	}
	ok := true
	var read []func(*contactstore.DNDSettings)
	for _, c := range channels {
		if c.body == nil {
			continue
		}
		field := "dndSettings." + c.name
		status := ""
		if b.v.RequiredOneOf(field+".status", c.body.Status, dndStatuses...) {
			status = *c.body.Status
		} else {
			ok = false
		}
		message, okM := optionalText(b.v, field+".message", c.body.Message, maxDNDMessageLen)
		code, okC := optionalText(b.v, field+".code", c.body.Code, maxDNDCodeLen)
		ok = ok && okM && okC
		to := c.to
		read = append(read, func(s *contactstore.DNDSettings) {
			*to(s) = &contactstore.DNDSetting{Status: status, Message: message, Code: code}
		})
	}
	if !ok || len(read) == 0 {
		return
	}
	b.p.add("dndSettings", func(r *contactstore.Record) error {
		if r.DNDSettings == nil {
			r.DNDSettings = &contactstore.DNDSettings{}
		}
		for _, set := range read {
			set(r.DNDSettings)
		}
		return nil
	})
}

func (b *bodyRules) inboundDND(d *inboundDNDBody) {
	if d.All == nil {
		b.p.add("inboundDndSettings", func(r *contactstore.Record) error { r.InboundDNDSettings = nil; return nil })
		return
	}
	if !b.v.RequiredOneOf("inboundDndSettings.all.status", d.All.Status, inboundDNDStatuses...) {
		return
	}
	message, ok := optionalText(b.v, "inboundDndSettings.all.message", d.All.Message, maxDNDMessageLen)
	if !ok {
		return
	}
	setting := contactstore.InboundDNDSetting{Status: *d.All.Status, Message: message}
	b.p.add("inboundDndSettings", func(r *contactstore.Record) error {
		r.InboundDNDSettings = &contactstore.InboundDNDSettings{All: &setting}
		return nil
	})
}

// customFields reads custom field values. On a new contact they are its
// values; on a stored one each replaces the value of its field, an empty
// value removes it, and the others are kept.
func (b *bodyRules) customFields(list []customFieldBody) {
	if !b.v.Check(len(list) <= maxCustomFields, fmt.Sprintf("customFields must list at most %d values", maxCustomFields)) {
		return
	}
	var values []contactstore.CustomValue
	seen := map[string]int{}
	ok := true
	for i, cf := range list {
		field := fmt.Sprintf("customFields[%d]", i)
		if !b.v.Required(field+".id", cf.ID) || !b.v.ID(field+".id", *cf.ID) {
			ok = false
			continue
		}
		if _, okKey := optionalText(b.v, field+".key", cf.Key, maxCustomKeyLen); !okKey {
			ok = false
		}
		value := ""
		if raw := bytes.TrimSpace(cf.FieldValue); len(raw) > 0 && string(raw) != "null" {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				b.v.Addf("%s.field_value must be a string: this API keeps one text value per custom field", field)
				ok = false
				continue
			}
			if msg := validate.MultilineTextProblem(field+".field_value", s); msg != "" {
				b.v.Add(msg)
				ok = false
				continue
			}
			if !b.v.MaxLen(field+".field_value", s, maxCustomValueLen) {
				ok = false
				continue
			}
			value = s
		}
		if j, dup := seen[*cf.ID]; dup {
			b.v.Addf("%s.id names the field customFields[%d] names", field, j)
			ok = false
			continue
		}
		seen[*cf.ID] = i
		values = append(values, contactstore.CustomValue{ID: *cf.ID, Value: value})
	}
	if !ok {
		return
	}
	b.p.add("customFields", func(r *contactstore.Record) error {
		merged := slices.Clone(r.CustomFields)
		for _, cv := range values {
			at := slices.IndexFunc(merged, func(old contactstore.CustomValue) bool { return old.ID == cv.ID })
			switch {
			case at >= 0 && cv.Value == "":
				merged = slices.Delete(merged, at, at+1)
			case at >= 0:
				merged[at] = cv
			case cv.Value != "":
				merged = append(merged, cv)
			}
		}
		if len(merged) > maxCustomFields {
			return errTooManyCustomFields
		}
		r.CustomFields = merged
		return nil
	})
}

// optionalText reads an optional text of at most max characters.
func optionalText(v *validate.Errors, field string, s *string, max int) (string, bool) {
	if s == nil {
		return "", true
	}
	if msg := validate.TextProblem(field, *s); msg != "" {
		v.Add(msg)
		return "", false
	}
	return *s, v.MaxLen(field, *s, max)
}

// readTags reads a list of tags: each trimmed, not empty, lower-cased
// (tags are compared without case, as the public API does), each once,
// at most contactstore.MaxTags; atLeastOne refuses an empty list.
func readTags(v *validate.Errors, field string, list []string, atLeastOne bool) ([]string, bool) {
	if atLeastOne && !v.Check(len(list) > 0, field+" must list at least one tag") {
		return nil, false
	}
	if !v.Check(len(list) <= contactstore.MaxTags, fmt.Sprintf("%s must list at most %d tags", field, contactstore.MaxTags)) {
		return nil, false
	}
	tags := []string{}
	ok := true
	for i, t := range list {
		name := fmt.Sprintf("%s[%d]", field, i)
		t = strings.ToLower(strings.TrimSpace(t))
		switch msg := validate.TextProblem(name, t); {
		case msg != "":
			v.Add(msg)
			ok = false
		case t == "":
			v.Addf("%s must not be empty", name)
			ok = false
		case !v.MaxLen(name, t, maxTagLen):
			ok = false
		case !slices.Contains(tags, t):
			tags = append(tags, t)
		}
	}
	return tags, ok
}

// emailRule accepts a plain e-mail address (or none).
func emailRule(v string) (string, string) {
	if v != "" && !validate.IsEmail(v) {
		return "", "must be an e-mail address (name@example.com)"
	}
	return v, ""
}

// phoneRule accepts a phone number of 7 to 15 digits, written with
// spaces, '-', '.', '(' and ')' and an optional leading '+'; it is stored
// as '+' and its digits when it has the '+' (E.164), else as its digits.
func phoneRule(v string) (string, string) {
	if v == "" {
		return "", ""
	}
	const problem = "must be a phone number of 7 to 15 digits (E.164, +14155550123), written with digits, spaces and - . ( ), and an optional leading +"
	plus := strings.HasPrefix(v, "+")
	var d strings.Builder
	for i, c := range v {
		switch {
		case c >= '0' && c <= '9':
			d.WriteRune(c)
		case c == '+' && i == 0, strings.ContainsRune(" -.()", c):
		default:
			return "", problem
		}
	}
	if n := d.Len(); n < minPhoneDigits || n > maxPhoneDigits {
		return "", problem
	}
	if plus {
		return "+" + d.String(), ""
	}
	return d.String(), ""
}

// websiteRule accepts an absolute http or https URL (or none).
func websiteRule(v string) (string, string) {
	if v == "" {
		return "", ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(v, " \t") {
		return "", "must be an absolute http or https URL (https://www.example.com)"
	}
	return v, ""
}

// timezoneRule accepts an IANA time zone name (America/New_York, UTC), or
// none.
func timezoneRule(v string) (string, string) {
	if v == "" {
		return "", ""
	}
	const problem = "must be an IANA time zone name (America/New_York, Europe/Berlin, UTC)"
	for _, part := range strings.Split(v, "/") {
		if part == "" {
			return "", problem
		}
		for _, c := range part {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+') {
				return "", problem
			}
		}
	}
	return v, ""
}

// birthDateLayouts are the formats the public API takes a date of birth
// in.
var birthDateLayouts = []string{"2006/01/02", "01/02/2006", "2006-01-02", "01-02-2006", "2006.01.02", "01.02.2006", "2006_01_02", "01_02_2006"}

// birthDateRule accepts a real calendar date from 1900 in one of the
// public API's formats, and stores it as YYYY-MM-DD.
func birthDateRule(v string) (string, string) {
	if v == "" {
		return "", ""
	}
	for _, layout := range birthDateLayouts {
		if d, err := time.Parse(layout, v); err == nil && d.Year() >= 1900 {
			return d.Format("2006-01-02"), ""
		}
	}
	return "", "must be a date from 1900 on, as YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD, MM-DD-YYYY (or with . or _ between)"
}

// countryRule accepts a two-letter country code of the contract's list,
// in either case, stored in upper case (never empty: a country is
// replaced, not cleared).
func countryRule(v string) (string, string) {
	c := strings.ToUpper(v)
	if !validate.IsCountryCode(c) {
		return "", "must be a two-letter country code (ISO 3166-1, such as US or DE)"
	}
	return c, ""
}

// idRule accepts an id (never empty: null clears the field).
func idRule(v string) (string, string) {
	if msg := validate.IDProblem("", v); msg != "" {
		return "", strings.TrimSpace(msg)
	}
	return v, ""
}
