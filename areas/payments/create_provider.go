package payments

import (
	"net/http"
	"strings"
	"unicode"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/validate"
)

// Bounds of the provider's free-text fields: a title is a display name, a
// description a short paragraph, and 2048 characters fits any real URL.
const (
	maxTitleLen       = 100
	maxDescriptionLen = 1000
	maxImageURLLen    = 2048
)

type createProviderRequest struct {
	AltID       *string `json:"altId"`
	AltType     *string `json:"altType"`
	UniqueName  *string `json:"uniqueName"`
	Title       *string `json:"title"`
	Provider    *string `json:"provider"`
	Description *string `json:"description"`
	ImageURL    *string `json:"imageUrl"`
}

// check records every rule the request breaks.
func (req *createProviderRequest) check(v *validate.Errors) {
	v.Alt(req.AltID, req.AltType)
	if req.UniqueName == nil {
		v.Add("uniqueName is required")
	} else if msg := uniqueNameProblem(*req.UniqueName); msg != "" {
		v.Add(msg)
	}
	if v.Required("title", req.Title) && v.MaxLen("title", *req.Title, maxTitleLen) {
		v.Check(!hasControl(*req.Title), "title must be one line without control characters")
	}
	v.RequiredOneOf("provider", req.Provider, gateways...)
	if v.Required("description", req.Description) {
		v.MaxLen("description", *req.Description, maxDescriptionLen)
	}
	if v.Required("imageUrl", req.ImageURL) && v.MaxLen("imageUrl", *req.ImageURL, maxImageURLLen) {
		v.OutsideURL("imageUrl", *req.ImageURL)
	}
}

// createProvider adds a white-label payment provider to the caller's account.
// The router has already refused tokens other than marketplace-app tokens.
func (h *handler) createProvider(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body createProviderRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.AltID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	at := h.deps.Clock.Now()
	now := clock.Timestamp(at)
	prov := Provider{
		ID:          ids.Hex24(),
		AltID:       p.AccountID,
		AltType:     validate.AltType,
		Title:       *body.Title,
		Route:       routeOf(*body.UniqueName),
		Provider:    *body.Provider,
		Description: *body.Description,
		ImageURL:    *body.ImageURL,
		CreatedAt:   now,
		UpdatedAt:   now,
	}
	created, err := h.store.CreateProvider(ctx, *body.UniqueName, prov, at)
	if err != nil {
		return err
	}
	if !created {
		return apierror.Invalid("uniqueName " + *body.UniqueName + " is already used by a provider of this account")
	}
	return httpio.WriteJSON(w, http.StatusOK, prov)
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}
