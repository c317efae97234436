package emails

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/validate"
)

// Bounds of the free-text fields. The public API states none; these keep a
// template record small and its fields displayable.
const (
	maxTitleLen  = 255
	maxNameLen   = 255
	maxSourceLen = 100
	maxURLLen    = 2048
)

// Builder versions ("1" or "2"); new templates get the current one.
const defaultBuilderVersion = "2"

var builderVersions = []string{"1", defaultBuilderVersion}

// Import providers, as the public API names them.
var importProviders = []string{"mailchimp", "active_campaign", "kajabi"}

// createRequest is the body of POST /emails/builder. Pointers tell an absent
// field from an empty one.
type createRequest struct {
	LocationID      *string `json:"locationId"`
	Title           *string `json:"title"`
	Type            *string `json:"type"`
	UpdatedBy       *string `json:"updatedBy"`
	BuilderVersion  *string `json:"builderVersion"`
	Name            *string `json:"name"`
	ParentID        *string `json:"parentId"`
	TemplateDataURL *string `json:"templateDataUrl"`
	ImportProvider  *string `json:"importProvider"`
	ImportURL       *string `json:"importURL"`
	TemplateSource  *string `json:"templateSource"`
	IsPlainText     *bool   `json:"isPlainText"`

	template Template // the template the request describes, once checked
}

type createResponse struct {
	Redirect string `json:"redirect"`
	TraceID  string `json:"traceId"`
}

// check records every rule the request breaks and keeps the template it
// describes (without id and dates) in req.template.
func (req *createRequest) check(v *validate.Errors) {
	t := &req.template
	*t = Template{BuilderVersion: defaultBuilderVersion, IsPlainText: req.IsPlainText}

	if v.Required("locationId", req.LocationID) && v.ID("locationId", *req.LocationID) {
		t.LocationID = *req.LocationID
	}
	if v.RequiredOneOf("type", req.Type, Types...) {
		t.Type = *req.Type
	}
	if req.BuilderVersion != nil && v.OneOf("builderVersion", *req.BuilderVersion, builderVersions...) {
		t.BuilderVersion = *req.BuilderVersion
	}
	t.Title = optionalText(v, "title", req.Title, maxTitleLen)
	t.Name = optionalText(v, "name", req.Name, maxNameLen)
	t.TemplateSource = optionalText(v, "templateSource", req.TemplateSource, maxSourceLen)
	if req.UpdatedBy != nil && v.ID("updatedBy", *req.UpdatedBy) {
		t.UpdatedBy = *req.UpdatedBy
	}
	if req.ParentID != nil && v.ID("parentId", *req.ParentID) {
		t.ParentID = *req.ParentID
	}
	// The public API shows templateDataUrl as "" in its sample: empty means
	// "no data yet"; anything else must be a link the builder can fetch.
	if req.TemplateDataURL != nil && *req.TemplateDataURL != "" && httpsURL(v, "templateDataUrl", *req.TemplateDataURL) {
		t.TemplateDataURL = *req.TemplateDataURL
	}

	// importProvider and importURL describe where an import comes from: both
	// are needed for an import and meaningless for anything else.
	if t.Type == TypeImport {
		if v.RequiredOneOf("importProvider", req.ImportProvider, importProviders...) {
			t.ImportProvider = *req.ImportProvider
		}
		if v.Required("importURL", req.ImportURL) && httpsURL(v, "importURL", *req.ImportURL) {
			t.ImportURL = *req.ImportURL
		}
	} else if t.Type != "" {
		v.Check(req.ImportProvider == nil, fmt.Sprintf("importProvider is only allowed when type is %s", TypeImport))
		v.Check(req.ImportURL == nil, fmt.Sprintf("importURL is only allowed when type is %s", TypeImport))
	}
}

// optionalText checks a text field that may be absent but not blank.
func optionalText(v *validate.Errors, field string, s *string, max int) string {
	if s == nil {
		return ""
	}
	if !v.Check(strings.TrimSpace(*s) != "", field+" must not be blank") || !v.MaxLen(field, *s, max) {
		return ""
	}
	return *s
}

func httpsURL(v *validate.Errors, field, s string) bool {
	return v.MaxLen(field, s, maxURLLen) && v.OutsideURL(field, s)
}

func (h *handler) createTemplate(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body createRequest
	in.Body(&body, body.check)
	if _, err := in.Account(body.LocationID); err != nil {
		return err
	}
	t, ctx := body.template, r.Context()
	if t.ParentID != "" {
		// Read in the caller's partition only: another account's folder is
		// not found, like a missing one.
		parent, err := h.store.Get(ctx, t.LocationID, t.ParentID)
		if err != nil {
			return err
		}
		if parent == nil {
			return apierror.NotFound("parentId %s names no folder of this location", t.ParentID)
		}
		if !parent.IsFolder() {
			return apierror.Invalid(fmt.Sprintf("parentId must name a folder, and %s is a template of type %s", t.ParentID, parent.Type))
		}
	}
	at := h.clock.Now()
	now := clock.Timestamp(at)
	t.DateAdded, t.DateUpdated = now, now
	id, err := h.store.Create(ctx, t, at)
	if err != nil {
		return err
	}
	return httpio.WriteJSON(w, http.StatusCreated, createResponse{Redirect: id, TraceID: httpserve.RequestID(ctx)})
}
