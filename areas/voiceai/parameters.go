package voiceai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Action types, as the public API names them.
const (
	TypeCallTransfer         = "CALL_TRANSFER"
	TypeDataExtraction       = "DATA_EXTRACTION"
	TypeInCallDataExtraction = "IN_CALL_DATA_EXTRACTION"
	TypeWorkflowTrigger      = "WORKFLOW_TRIGGER"
	TypeSMS                  = "SMS"
	TypeAppointmentBooking   = "APPOINTMENT_BOOKING"
	TypeCustomAction         = "CUSTOM_ACTION"
	TypeKnowledgeBase        = "KNOWLEDGE_BASE"
)

// ActionTypes lists the action types in the public API's order.
var ActionTypes = []string{
	TypeCallTransfer, TypeDataExtraction, TypeInCallDataExtraction, TypeWorkflowTrigger,
	TypeSMS, TypeAppointmentBooking, TypeCustomAction, TypeKnowledgeBase,
}

// Bounds the public API does not state; they keep an action small and its
// texts usable in a call (an SMS body of at most ten segments).
const (
	maxPromptLen      = 2000 // triggerPrompt, triggerMessage, description
	maxSMSLen         = 1600
	maxExamples       = 5
	maxExampleLen     = 200
	maxURLLen         = 2048
	maxSecretLen      = 2048
	maxHeaders        = 20
	maxHeaderKeyLen   = 100
	maxHeaderValueLen = 2048
	maxAPIParameters  = 20
	maxParamNameLen   = 100
	maxParamTextLen   = 1000
	maxParamTypeLen   = 50
	maxSelectedPaths  = 20
	maxPathLen        = 200
	maxOfferingDays   = 365
	maxSlotsPerDay    = 48
	maxHoursBetween   = 24
)

// paramsField is the request field the parameters come in; violations name
// their path below it.
const paramsField = "actionParameters"

// Parameters are an action's validated parameters in the shape the API
// answers and stores (absent optional fields stay absent).
type Parameters = map[string]any

type parameterParser func(v *validate.Errors, raw json.RawMessage) Parameters

var parsers = map[string]parameterParser{
	TypeCallTransfer:         parseCallTransfer,
	TypeDataExtraction:       parseDataExtraction,
	TypeInCallDataExtraction: parseDataExtraction,
	TypeWorkflowTrigger:      parseWorkflowTrigger,
	TypeSMS:                  parseSMS,
	TypeAppointmentBooking:   parseAppointmentBooking,
	TypeCustomAction:         parseCustomAction,
	TypeKnowledgeBase:        parseKnowledgeBase,
}

// parseParameters strictly decodes raw as the parameters of an action of
// actionType, records every broken rule into v and returns the parameters.
// With an unknown actionType (reported by the caller) only presence is
// checked: the structure to check against is not known.
func parseParameters(v *validate.Errors, actionType string, raw json.RawMessage) Parameters {
	if absent(raw) {
		v.Add(paramsField + " is required")
		return nil
	}
	parse, ok := parsers[actionType]
	if !ok {
		return nil
	}
	return parse(v, raw)
}

// absent reports whether a raw value was left out or null.
func absent(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// decode strictly decodes raw (the value at path) into dst, recording a
// wrong type or an unknown property as a violation naming its path.
func decode(v *validate.Errors, raw json.RawMessage, path string, dst any) bool {
	err := httpio.DecodeValue(raw, path, dst)
	if err == nil {
		return true
	}
	if e, ok := apierror.As(err); ok && len(e.Violations) > 0 {
		for _, msg := range e.Violations {
			v.Add(msg)
		}
	} else {
		v.Add(path + " is not valid")
	}
	return false
}

// decodeList decodes the array at path into its elements (each decoded on
// its own, so that a violation names its index).
func decodeList(v *validate.Errors, raw json.RawMessage, path string) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	if !decode(v, raw, path, &items) {
		return nil, false
	}
	return items, true
}

// fields checks the properties of one object at path and collects the valid
// ones into out.
type fields struct {
	v    *validate.Errors
	path string
	out  Parameters
}

func newFields(v *validate.Errors, path string) *fields {
	return &fields{v: v, path: path, out: Parameters{}}
}

func (f *fields) at(name string) string { return f.path + "." + name }

// text is a required, non-blank text of at most max characters.
func (f *fields) text(name string, s *string, max int) bool {
	if f.v.Required(f.at(name), s) && f.v.MaxLen(f.at(name), *s, max) {
		f.out[name] = *s
		return true
	}
	return false
}

// optionalText is a text of at most max characters that may be left out.
func (f *fields) optionalText(name string, s *string, max int) {
	if s != nil && f.v.MaxLen(f.at(name), *s, max) {
		f.out[name] = *s
	}
}

// id is a required id of another record (a contact field, workflow,
// calendar or knowledge base of the account).
func (f *fields) id(name string, s *string) {
	if f.v.Required(f.at(name), s) && f.v.ID(f.at(name), *s) {
		f.out[name] = *s
	}
}

func (f *fields) flag(name string, b *bool) {
	if b != nil {
		f.out[name] = *b
	}
}

// count is a required whole number in [1, max].
func (f *fields) count(name string, n *float64, max int) {
	if !validate.RequiredPresent(f.v, f.at(name), n) {
		return
	}
	if f.v.Check(*n == math.Trunc(*n) && *n >= 1 && *n <= float64(max),
		fmt.Sprintf("%s must be a whole number from 1 to %d", f.at(name), max)) {
		f.out[name] = *n
	}
}

// positive is a required number above 0 and at most max.
func (f *fields) positive(name string, n *float64, max float64) {
	if !validate.RequiredPresent(f.v, f.at(name), n) {
		return
	}
	if f.v.Check(*n > 0 && *n <= max, fmt.Sprintf("%s must be a number above 0 and at most %g", f.at(name), max)) {
		f.out[name] = *n
	}
}

// Call transfer.

// transferNumber is the public API's rule for transferToValue: "+", the
// country code and number, digits only, 11 to 16 characters in all. The
// regular expressions are compiled on first use, not at every cold start.
var transferNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\+[0-9]{10,15}$`) })

type callTransferParams struct {
	TriggerPrompt      *string `json:"triggerPrompt"`
	TransferToType     *string `json:"transferToType"`
	TransferToValue    *string `json:"transferToValue"`
	TriggerMessage     *string `json:"triggerMessage"`
	HearWhisperMessage *bool   `json:"hearWhisperMessage"`
}

func parseCallTransfer(v *validate.Errors, raw json.RawMessage) Parameters {
	var p callTransferParams
	if !decode(v, raw, paramsField, &p) {
		return nil
	}
	f := newFields(v, paramsField)
	f.text("triggerPrompt", p.TriggerPrompt, maxPromptLen)
	if v.Required(f.at("transferToType"), p.TransferToType) && v.OneOf(f.at("transferToType"), *p.TransferToType, "number") {
		f.out["transferToType"] = *p.TransferToType
	}
	if v.Required(f.at("transferToValue"), p.TransferToValue) && v.Check(transferNumber().MatchString(*p.TransferToValue),
		f.at("transferToValue")+" must be a phone number: + then the country code and number, digits only, 11 to 16 characters (e.g. +12345678901)") {
		f.out["transferToValue"] = *p.TransferToValue
	}
	f.text("triggerMessage", p.TriggerMessage, maxPromptLen)
	f.flag("hearWhisperMessage", p.HearWhisperMessage)
	return f.out
}

// Data extraction (after the call or during it: the same structure).

type dataExtractionParams struct {
	ContactFieldID         *string         `json:"contactFieldId"`
	Description            *string         `json:"description"`
	Examples               json.RawMessage `json:"examples"`
	OverwriteExistingValue *bool           `json:"overwriteExistingValue"`
}

func parseDataExtraction(v *validate.Errors, raw json.RawMessage) Parameters {
	var p dataExtractionParams
	if !decode(v, raw, paramsField, &p) {
		return nil
	}
	f := newFields(v, paramsField)
	f.id("contactFieldId", p.ContactFieldID)
	f.text("description", p.Description, maxPromptLen)
	if examples, ok := stringList(v, p.Examples, f.at("examples"), true, maxExampleLen); ok {
		if v.Check(len(examples) >= 1 && len(examples) <= maxExamples,
			fmt.Sprintf("%s must hold 1 to %d examples", f.at("examples"), maxExamples)) {
			f.out["examples"] = examples
		}
	}
	// The public API's default: an extracted value never replaces one the
	// contact already has unless asked to.
	overwrite := false
	if p.OverwriteExistingValue != nil {
		overwrite = *p.OverwriteExistingValue
	}
	f.out["overwriteExistingValue"] = overwrite
	return f.out
}

// stringList decodes the list of non-blank texts at path. It reports false
// when the list is broken, or absent and required (recording why); an
// absent optional list is an empty, valid one.
func stringList(v *validate.Errors, raw json.RawMessage, path string, required bool, maxLen int) ([]any, bool) {
	if absent(raw) {
		return nil, v.Check(!required, path+" is required")
	}
	items, ok := decodeList(v, raw, path)
	if !ok {
		return nil, false
	}
	out := make([]any, 0, len(items))
	for i, item := range items {
		at := fmt.Sprintf("%s[%d]", path, i)
		var s string
		if !decode(v, item, at, &s) {
			ok = false
			continue
		}
		if !v.Check(strings.TrimSpace(s) != "", at+" must not be blank") || !v.MaxLen(at, s, maxLen) {
			ok = false
			continue
		}
		out = append(out, s)
	}
	return out, ok
}

// Workflow trigger.

type workflowTriggerParams struct {
	TriggerPrompt  *string `json:"triggerPrompt"`
	TriggerMessage *string `json:"triggerMessage"`
	WorkflowID     *string `json:"workflowId"`
}

func parseWorkflowTrigger(v *validate.Errors, raw json.RawMessage) Parameters {
	var p workflowTriggerParams
	if !decode(v, raw, paramsField, &p) {
		return nil
	}
	f := newFields(v, paramsField)
	f.text("triggerPrompt", p.TriggerPrompt, maxPromptLen)
	f.text("triggerMessage", p.TriggerMessage, maxPromptLen)
	f.id("workflowId", p.WorkflowID)
	return f.out
}

// SMS.

type smsParams struct {
	TriggerPrompt  *string `json:"triggerPrompt"`
	TriggerMessage *string `json:"triggerMessage"`
	MessageBody    *string `json:"messageBody"`
}

func parseSMS(v *validate.Errors, raw json.RawMessage) Parameters {
	var p smsParams
	if !decode(v, raw, paramsField, &p) {
		return nil
	}
	f := newFields(v, paramsField)
	f.text("triggerPrompt", p.TriggerPrompt, maxPromptLen)
	f.text("triggerMessage", p.TriggerMessage, maxPromptLen)
	f.text("messageBody", p.MessageBody, maxSMSLen)
	return f.out
}

// Appointment booking.

type appointmentBookingParams struct {
	CalendarID          *string  `json:"calendarId"`
	DaysOfOfferingDates *float64 `json:"daysOfOfferingDates"`
	SlotsPerDay         *float64 `json:"slotsPerDay"`
	HoursBetweenSlots   *float64 `json:"hoursBetweenSlots"`
}

func parseAppointmentBooking(v *validate.Errors, raw json.RawMessage) Parameters {
	var p appointmentBookingParams
	if !decode(v, raw, paramsField, &p) {
		return nil
	}
	f := newFields(v, paramsField)
	f.id("calendarId", p.CalendarID)
	// Days and slots are counted; the gap between slots may be a fraction
	// of an hour (0.5).
	f.count("daysOfOfferingDates", p.DaysOfOfferingDates, maxOfferingDays)
	f.count("slotsPerDay", p.SlotsPerDay, maxSlotsPerDay)
	f.positive("hoursBetweenSlots", p.HoursBetweenSlots, maxHoursBetween)
	return f.out
}

// Knowledge base.

type knowledgeBaseParams struct {
	TriggerPrompt   *string `json:"triggerPrompt"`
	KnowledgeBaseID *string `json:"knowledgeBaseId"`
}

func parseKnowledgeBase(v *validate.Errors, raw json.RawMessage) Parameters {
	var p knowledgeBaseParams
	if !decode(v, raw, paramsField, &p) {
		return nil
	}
	f := newFields(v, paramsField)
	f.text("triggerPrompt", p.TriggerPrompt, maxPromptLen)
	f.id("knowledgeBaseId", p.KnowledgeBaseID)
	return f.out
}

// Custom action: a call to an outside API.

const (
	methodGet  = "GET"
	methodPost = "POST"
)

type customActionParams struct {
	TriggerPrompt  *string         `json:"triggerPrompt"`
	TriggerMessage *string         `json:"triggerMessage"`
	APIDetails     json.RawMessage `json:"apiDetails"`
	SelectedPaths  json.RawMessage `json:"selectedPaths"`
}

type apiDetailsParams struct {
	URL                    *string         `json:"url"`
	Method                 *string         `json:"method"`
	AuthenticationRequired *bool           `json:"authenticationRequired"`
	AuthenticationValue    *string         `json:"authenticationValue"`
	Headers                json.RawMessage `json:"headers"`
	Parameters             json.RawMessage `json:"parameters"`
}

type headerParams struct {
	Key   *string `json:"key"`
	Value *string `json:"value"`
}

type apiParameterParams struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Type        *string `json:"type"`
	Example     *string `json:"example"`
}

func parseCustomAction(v *validate.Errors, raw json.RawMessage) Parameters {
	var p customActionParams
	if !decode(v, raw, paramsField, &p) {
		return nil
	}
	f := newFields(v, paramsField)
	f.text("triggerPrompt", p.TriggerPrompt, maxPromptLen)
	f.text("triggerMessage", p.TriggerMessage, maxPromptLen)

	method := ""
	detailsPath := f.at("apiDetails")
	if absent(p.APIDetails) {
		v.Add(detailsPath + " is required")
	} else if details, m := parseAPIDetails(v, p.APIDetails, detailsPath); details != nil {
		f.out["apiDetails"] = details
		method = m
	}

	// The response paths the agent reads: a GET is made to read something,
	// so it needs at least one; a POST's answer is not read.
	pathsAt := f.at("selectedPaths")
	paths, ok := stringList(v, p.SelectedPaths, pathsAt, false, maxPathLen)
	if ok {
		ok = v.Check(len(paths) <= maxSelectedPaths, fmt.Sprintf("%s must hold at most %d paths", pathsAt, maxSelectedPaths))
	}
	switch {
	case !ok:
	case method == methodGet:
		if v.Check(len(paths) > 0, pathsAt+" must hold at least one response path when apiDetails.method is GET") {
			f.out["selectedPaths"] = paths
		}
	case method == methodPost:
		if v.Check(len(paths) == 0, pathsAt+" must be empty when apiDetails.method is POST") && !absent(p.SelectedPaths) {
			f.out["selectedPaths"] = paths
		}
	}
	return f.out
}

// parseAPIDetails checks apiDetails and returns it with its method ("" when
// the method is broken).
func parseAPIDetails(v *validate.Errors, raw json.RawMessage, path string) (Parameters, string) {
	var p apiDetailsParams
	if !decode(v, raw, path, &p) {
		return nil, ""
	}
	f := newFields(v, path)
	if v.Required(f.at("url"), p.URL) && v.MaxLen(f.at("url"), *p.URL, maxURLLen) && v.OutsideURL(f.at("url"), *p.URL) {
		f.out["url"] = *p.URL
	}
	method := ""
	if v.Required(f.at("method"), p.Method) && v.OneOf(f.at("method"), *p.Method, methodPost, methodGet) {
		method = *p.Method
		f.out["method"] = method
	}
	f.flag("authenticationRequired", p.AuthenticationRequired)
	if p.AuthenticationRequired != nil && *p.AuthenticationRequired {
		// Left out, the stored value is kept (see credential.go).
		if p.AuthenticationValue != nil {
			f.text("authenticationValue", p.AuthenticationValue, maxSecretLen)
		}
	} else {
		// A secret the call would never send is not kept.
		v.Check(p.AuthenticationValue == nil || *p.AuthenticationValue == "",
			f.at("authenticationValue")+" is only allowed when authenticationRequired is true")
	}
	if !absent(p.Headers) {
		if headers := parseHeaders(v, p.Headers, f.at("headers")); headers != nil {
			f.out["headers"] = headers
		}
	}
	if !absent(p.Parameters) {
		if params := parseAPIParameters(v, p.Parameters, f.at("parameters")); params != nil {
			f.out["parameters"] = params
		}
	}
	return f.out, method
}

// headerName is an HTTP field name (RFC 9110 token).
var headerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$") })

func parseHeaders(v *validate.Errors, raw json.RawMessage, path string) []any {
	items, ok := decodeList(v, raw, path)
	if !ok || !v.Check(len(items) <= maxHeaders, fmt.Sprintf("%s must hold at most %d headers", path, maxHeaders)) {
		return nil
	}
	out := make([]any, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		var h headerParams
		at := fmt.Sprintf("%s[%d]", path, i)
		if !decode(v, item, at, &h) {
			ok = false
			continue
		}
		f := newFields(v, at)
		if f.text("key", h.Key, maxHeaderKeyLen) {
			key := *h.Key
			if v.Check(headerName().MatchString(key), f.at("key")+" must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)") {
				v.Check(!seen[strings.ToLower(key)], fmt.Sprintf("%s repeats the header %s", f.at("key"), key))
				seen[strings.ToLower(key)] = true
			}
		}
		if f.text("value", h.Value, maxHeaderValueLen) {
			v.Check(!hasControl(*h.Value), f.at("value")+" must not contain control characters (line breaks)")
		}
		out = append(out, f.out)
	}
	if !ok {
		return nil
	}
	return out
}

func parseAPIParameters(v *validate.Errors, raw json.RawMessage, path string) []any {
	items, ok := decodeList(v, raw, path)
	if !ok || !v.Check(len(items) <= maxAPIParameters, fmt.Sprintf("%s must hold at most %d parameters", path, maxAPIParameters)) {
		return nil
	}
	out := make([]any, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		var p apiParameterParams
		at := fmt.Sprintf("%s[%d]", path, i)
		if !decode(v, item, at, &p) {
			ok = false
			continue
		}
		f := newFields(v, at)
		if f.text("name", p.Name, maxParamNameLen) {
			v.Check(!seen[*p.Name], fmt.Sprintf("%s repeats the parameter %s", f.at("name"), *p.Name))
			seen[*p.Name] = true
		}
		f.optionalText("description", p.Description, maxParamTextLen)
		f.optionalText("type", p.Type, maxParamTypeLen)
		f.optionalText("example", p.Example, maxExampleLen)
		out = append(out, f.out)
	}
	if !ok {
		return nil
	}
	return out
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f })
}
