package portal

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
)

// pageError is an answer that is a page saying what went wrong and, for a
// form, that nothing was changed.
type pageError struct {
	Status  int
	Title   string
	Message string
	// Back is where the page's one link goes ("" for the portal's start).
	Back, BackLabel string
	// Refusal names, for the log line's warning, a refusal an operator
	// should notice: "" for what a person's mistake explains.
	Refusal string
}

func (e *pageError) Error() string { return e.Title + ": " + e.Message }

// redirect is an answer that sends the browser elsewhere (303 See Other).
type redirect struct{ to string }

func (r redirect) Error() string { return "redirect to " + r.to }

var (
	errNotFound = &pageError{Status: http.StatusNotFound, Title: "Page not found",
		Message: "There is no page at this address."}
	errMethodNotAllowed = &pageError{Status: http.StatusMethodNotAllowed, Title: "Request refused",
		Message: "This page does not answer this kind of request, so nothing was changed."}
	errCrossSite = &pageError{Status: http.StatusForbidden, Title: "Request refused",
		Message: "This form was sent from another website, so it was refused and nothing was changed. Open the portal yourself and try again.",
		Refusal: "cross-site form"}
	errStaleForm = &pageError{Status: http.StatusForbidden, Title: "This form has expired",
		Message: "The form's security token is missing or out of date (for example, you signed in again since the page was loaded), so nothing was changed. Go back, reload the page and try again.",
		Refusal: "missing or stale CSRF token"}
	errFormTooLarge = &pageError{Status: http.StatusRequestEntityTooLarge, Title: "Form too large",
		Message: "The form sent is larger than any form of the portal, so nothing was changed.", Refusal: "form over the size limit"}
	errBadForm = &pageError{Status: http.StatusBadRequest, Title: "The form could not be read",
		Message: "The form sent is not one a browser sends from the portal's pages, so nothing was changed. Reload the page and try again."}
	errBadFilter = &pageError{Status: http.StatusBadRequest, Title: "This list cannot be shown",
		Message: "The filter or the page asked for is not one this list offers. Start again from the list's first page."}
	errNotAdmin = &pageError{Status: http.StatusForbidden, Title: "You do not administer this account",
		Message: "Only an admin of an account can see and manage its API tokens. Ask an admin of the account, or choose one of your own accounts.",
		Back:    Base + "/accounts", BackLabel: "Your accounts"}
	errSessionEnded = &pageError{Status: http.StatusUnauthorized, Title: "Your session has ended",
		Message: "You are signed out (sessions end after " + clock.Span(identity.SessionMaxAge) + ", or after " + clock.Span(identity.SessionIdle) + " without activity), so nothing was changed. Sign in again.",
		Back:    Base + "/sign-in", BackLabel: "Sign in"}
)

// tokenNotFound is the answer for a token id the account does not have:
// another account's token looks exactly like one that does not exist.
func tokenNotFound(accountID string) *pageError {
	return &pageError{Status: http.StatusNotFound, Title: "No such token",
		Message: "This account has no token with that id, so nothing was changed.",
		Back:    accountPath(accountID), BackLabel: "Back to API settings"}
}

// setRetryAfter says, on a 429 or 503, how long to wait: in whole seconds,
// rounded up, at least one.
func setRetryAfter(w http.ResponseWriter, d time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int((d+time.Second-1)/time.Second))))
}

// serveError answers err: a redirect, an error page, or, for anything
// unexpected, a page that tells nothing internal (the cause goes to the log
// line).
func (p *Portal) serveError(w http.ResponseWriter, r *http.Request, err error) {
	var rd redirect
	if errors.As(err, &rd) {
		http.Redirect(w, r, rd.to, http.StatusSeeOther)
		return
	}
	var pe *pageError
	if !errors.As(err, &pe) {
		switch {
		case apierror.Status(err, 0) == http.StatusServiceUnavailable: // the table's client classifies (apiserver.NewCore)
			setRetryAfter(w, time.Second)
			pe = &pageError{Status: http.StatusServiceUnavailable, Title: "Try again in a moment", Message: "The portal's storage is busy. Nothing you did caused this; try again in a moment."}
		default:
			pe = &pageError{Status: http.StatusInternalServerError, Title: "Something went wrong", Message: "Something went wrong on our side. Nothing you did caused this; try again in a moment."}
		}
	}
	v := &view{Title: pe.Title, Data: pe}
	if vis := visitOf(r); vis != nil {
		v.Person, v.CSRF = vis.person, vis.session.CSRF
	}
	p.render(w, pe.Status, "error", v)
}
