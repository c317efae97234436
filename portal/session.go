package portal

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/validate"
)

// Cookie names: the session, and the signed-out forms' CSRF token.
const (
	sessionCookie = "portal_session"
	formCookie    = "portal_form"
	// welcomeCookie carries the address a password was just set for to
	// the sign-in page, for a few minutes.
	welcomeCookie = "portal_welcome"
	welcomeAge    = 600
)

// visit is a signed-in request: the person, their session and, on an
// account's pages, the account they administer.
type visit struct {
	person  *identity.Person
	session *identity.Session
	account *accounts.Account
}

type visitKey struct{}

// visitSlot holds the request's visit once known, for the error page, and
// the refusal a handler that renders its own page names for the log line.
type visitSlot struct {
	v       *visit
	refusal string
}

// noteRefusal names the request's refusal for the log line's warning (a
// page rendered with a 429 rather than returned as a pageError).
func noteRefusal(r *http.Request, refusal string) {
	if s, ok := r.Context().Value(visitKey{}).(*visitSlot); ok {
		s.refusal = refusal
	}
}

func visitOf(r *http.Request) *visit {
	if s, ok := r.Context().Value(visitKey{}).(*visitSlot); ok {
		return s.v
	}
	return nil
}

type visitHandler func(w http.ResponseWriter, r *http.Request, v *visit) error

func (p *Portal) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: Base, MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: p.secure(r),
	})
}

// resume finds the request's session. Without one, a page view goes to the
// sign-in page (saying so when the session ended) and a form gets
// errSessionEnded: nothing it asked for happens.
func (p *Portal) resume(w http.ResponseWriter, r *http.Request) (*visit, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		if !isRead(r) {
			return nil, errSessionEnded
		}
		return nil, redirect{Base + "/sign-in" + returnTo(r, "?")}
	}
	person, sess, err := p.ids.Resume(r.Context(), c.Value)
	switch {
	case errors.Is(err, identity.ErrNoSession), errors.Is(err, identity.ErrSessionEnded):
		p.setCookie(w, r, sessionCookie, "", -1)
		if !isRead(r) {
			return nil, errSessionEnded
		}
		return nil, redirect{Base + "/sign-in?ended=1" + returnTo(r, "&")}
	case err != nil:
		return nil, err
	}
	v := &visit{person: person, session: sess}
	if slot, ok := r.Context().Value(visitKey{}).(*visitSlot); ok {
		slot.v = v
	}
	return v, nil
}

// isRead tells a page view (GET, or HEAD) from a form.
func isRead(r *http.Request) bool { return r.Method == http.MethodGet || r.Method == http.MethodHead }

// signedIn runs h for a signed-in person; a form must carry the session's
// CSRF token.
func (p *Portal) signedIn(h visitHandler) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		v, err := p.resume(w, r)
		if err != nil {
			return err
		}
		if r.Method == http.MethodPost && !v.session.CheckCSRF(r.PostFormValue("csrf")) {
			return errStaleForm
		}
		return h(w, r, v)
	}
}

// admin runs h for an admin of the path's account; anyone else, whether the
// account exists or not, gets errNotAdmin.
func (p *Portal) admin(h visitHandler) handlerFunc {
	return p.signedIn(func(w http.ResponseWriter, r *http.Request, v *visit) error {
		id := r.PathValue("account")
		if validate.IDProblem("account", id) != "" {
			return errNotAdmin
		}
		acct, err := p.ids.Administers(r.Context(), v.person, id)
		if err != nil {
			return err
		}
		if acct == nil {
			return errNotAdmin
		}
		v.account = acct
		return h(w, r, v)
	})
}

// formToken returns the CSRF token of the signed-out forms (sign-in, set
// password): a random value in a cookie that the form must repeat, which
// another site can neither read nor set.
func (p *Portal) formToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(formCookie); err == nil && len(c.Value) == 64 {
		return c.Value
	}
	v := randomValue()
	p.setCookie(w, r, formCookie, v, 0)
	return v
}

// checkFormToken refuses a signed-out form whose token does not match its
// cookie.
func checkFormToken(r *http.Request) error {
	c, err := r.Cookie(formCookie)
	sent := r.PostFormValue("csrf")
	if err != nil || sent == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(sent)) != 1 {
		return errStaleForm
	}
	return nil
}

// returnTo is the sign-in page's query part that brings the browser back to
// the page it asked for (a deep link survives signing in): sep and next=,
// or "" for the portal's start and the consent page (which adds its own).
func returnTo(r *http.Request, sep string) string {
	next := r.URL.RequestURI()
	if r.URL.Path == consentPath || !safeReturn(next) {
		return ""
	}
	return sep + "next=" + url.QueryEscape(next)
}

// safeReturn reports whether next is where the sign-in page may send the
// browser afterwards: the consent page, or an account's page of this site
// (never another site, nor a path a browser would read as one).
func safeReturn(next string) bool {
	if safeNext(next) {
		return true
	}
	u, err := url.Parse(next)
	return err == nil && u.Scheme == "" && u.Host == "" && u.Opaque == "" &&
		strings.HasPrefix(next, Base+"/accounts") && !strings.ContainsAny(next, "\\\x00") && !strings.Contains(next, "//")
}

// welcomeEmail is the address a password was just set for, which the
// sign-in page fills in; the cookie is used once.
func (p *Portal) welcomeEmail(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(welcomeCookie)
	if err != nil {
		return ""
	}
	p.setCookie(w, r, welcomeCookie, "", -1)
	email, err := url.QueryUnescape(c.Value)
	if err != nil || len(email) > 254 || !utf8.ValidString(email) {
		return ""
	}
	return email
}
