package users

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Bounds of a search. skip and limit default to the public API's "0" and
// "25"; the maximums are ours (the public API names none).
const (
	maxEmails    = 50
	defaultSkip  = 0
	maxSkip      = 10_000
	defaultLimit = 25
	maxLimit     = 100
)

// filterRequest is the body of POST /users/search/filter-by-email. skip and
// limit are numbers written as strings, as the public API declares them.
type filterRequest struct {
	CompanyID  *string `json:"companyId"`
	Emails     *string `json:"emails"`
	Deleted    *bool   `json:"deleted"`
	Skip       *string `json:"skip"`
	Limit      *string `json:"limit"`
	Projection *string `json:"projection"`

	search search // the search the request asks for, once checked
}

// filterResponse answers a search. Count is the number of users matching
// the search before skip and limit apply (all pages).
type filterResponse struct {
	Users []userView `json:"users"`
	Count int        `json:"count"`
}

// search is a validated request.
type search struct {
	companyID string
	// emails are lower-cased and distinct, in the order first given.
	emails []string
	// deleted false finds only users that are not deleted, true only
	// deleted ones.
	deleted bool
	skip    int
	limit   int
	fields  projection
}

// check records every rule the request breaks and keeps the search it asks
// for in req.search.
func (req *filterRequest) check(v *validate.Errors) {
	s := &req.search
	if v.Required("companyId", req.CompanyID) && v.ID("companyId", *req.CompanyID) {
		s.companyID = *req.CompanyID
	}
	if v.Required("emails", req.Emails) {
		s.emails = parseEmails(v, *req.Emails)
	}
	if req.Deleted != nil {
		s.deleted = *req.Deleted
	}
	s.skip = parseCount(v, "skip", req.Skip, defaultSkip, 0, maxSkip)
	s.limit = parseCount(v, "limit", req.Limit, defaultLimit, 1, maxLimit)
	s.fields = parseProjection(v, req.Projection)
}

// parseEmails reads a comma-separated list of addresses: spaces around an
// address are ignored, case is not significant, and an address given twice
// is searched once. Every entry must be an address.
func parseEmails(v *validate.Errors, raw string) []string {
	parts := strings.Split(raw, ",")
	if len(parts) > maxEmails {
		v.Addf("emails must list at most %d addresses (it lists %d)", maxEmails, len(parts))
		return nil
	}
	seen := map[string]bool{}
	var emails []string
	for i, part := range parts {
		addr := strings.TrimSpace(part)
		switch {
		case addr == "":
			v.Addf("emails entry %d is empty: emails is a comma-separated list of e-mail addresses", i+1)
		case !validate.IsEmail(addr):
			v.Addf("emails entry %d (%s) is not a valid e-mail address", i+1, quote(addr))
		case !seen[strings.ToLower(addr)]:
			seen[strings.ToLower(addr)] = true
			emails = append(emails, strings.ToLower(addr))
		}
	}
	return emails
}

// digits is compiled on first use, not at every cold start.
var digits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{1,9}$`) })

// parseCount reads a whole number written as a string ("25"), or def when
// absent.
func parseCount(v *validate.Errors, field string, raw *string, def, min, max int) int {
	if raw == nil {
		return def
	}
	value := strings.TrimSpace(*raw)
	if !digits().MatchString(value) {
		v.Addf(`%s must be a whole number written as a string, such as "%d"`, field, def)
		return def
	}
	n, _ := strconv.Atoi(value) // nine digits always fit
	if n < min || n > max {
		v.Addf("%s must be between %d and %d", field, min, max)
		return def
	}
	return n
}

func (h *handler) filterByEmail(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body filterRequest
	in.Body(&body, body.check)
	if _, err := in.Company(body.CompanyID); err != nil {
		return err
	}
	s, ctx := body.search, r.Context()
	// The search reads only the company's own users (see emailIndexPK), so
	// an address that also belongs to another company's user finds only
	// this company's.
	found, err := h.store.FindByEmails(ctx, s.companyID, s.emails, s.deleted)
	if err != nil {
		return err
	}
	resp := filterResponse{Users: []userView{}, Count: len(found)}
	if s.skip < len(found) {
		for _, u := range found[s.skip:min(s.skip+s.limit, len(found))] {
			resp.Users = append(resp.Users, s.fields.view(&u))
		}
	}
	return httpio.WriteJSON(w, http.StatusOK, resp)
}

// clip shortens a client's value quoted back in an error message.
func clip(s string) string {
	const max = 64
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "..."
	}
	return s
}

// quote quotes a client's value for an error message.
func quote(s string) string { return fmt.Sprintf("%q", clip(s)) }
