package portal

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/operations"
)

// The consent page: a marketplace app's authorization request
// (/oauth/chooselocation, and the newer /v2/oauth/chooselocation, as the
// public platform's) lands here, under the portal's path so that its
// session cookie comes along. The admin signs in when needed, sees the app,
// the scopes it asks for with the operations each unlocks and the events
// each lets it receive, the events it will receive, and the accounts they
// may install it into, and allows or cancels. Allow redirects to the
// app's redirect URI with a code (marketplace.Apps.IssueCode) and the
// state; Cancel with error=access_denied. A request whose client, redirect
// URI or scope is not the app's gets an error page, never a redirect.
const (
	consentPath  = Base + "/oauth/chooselocation"
	consentPath1 = "/oauth/chooselocation"
	consentPath2 = "/v2/oauth/chooselocation"
)

// ConsentPaths are the paths outside Base that lead to the consent page.
var ConsentPaths = []string{consentPath1, consentPath2}

// toConsent sends the public paths to the page with the query as sent.
func (p *Portal) toConsent(w http.ResponseWriter, r *http.Request) error {
	return redirect{consentPath + "?" + r.URL.RawQuery}
}

// authRequest is the authorization request's parameters, carried from the
// page to its form.
// CompanyID is the page's own parameter: the company a company app is
// installed for, chosen on the page by an agency admin of several.
type authRequest struct {
	ResponseType, ClientID, RedirectURI, Scope, State string
	CodeChallenge, CodeChallengeMethod                string
	CompanyID                                         string
}

func authRequestOf(v url.Values) authRequest {
	return authRequest{ResponseType: v.Get("response_type"), ClientID: v.Get("client_id"), RedirectURI: v.Get("redirect_uri"), Scope: v.Get("scope"), State: v.Get("state"),
		CodeChallenge: v.Get("code_challenge"), CodeChallengeMethod: v.Get("code_challenge_method"), CompanyID: v.Get("companyId")}
}

func (a authRequest) query() string {
	v := url.Values{"response_type": {a.ResponseType}, "client_id": {a.ClientID}, "redirect_uri": {a.RedirectURI}, "scope": {a.Scope}}
	for name, value := range map[string]string{"state": a.State, "code_challenge": a.CodeChallenge, "code_challenge_method": a.CodeChallengeMethod, "companyId": a.CompanyID} {
		if value != "" {
			v.Set(name, value)
		}
	}
	return v.Encode()
}

// consentScope is one scope the app asks for, with what it unlocks: the
// operations it may call and the events (of those it chose) it receives.
type consentScope struct {
	Scope      string
	Operations []string
	Events     []string
}

type consentData struct {
	Request authRequest
	App     marketplace.App
	Scopes  []consentScope
	// Receives is what the install will send the app
	// (marketplace.App.Receives): the types it chose that the scopes asked
	// read, each with the scopes that carry it; Routed, the types it gets
	// of its own install whatever the scopes (INSTALL, UNINSTALL).
	Receives []marketplace.Receivable
	Routed   []string
	Company  bool // a company install: choose accounts (checkboxes)
	// AppCompany is the name of the app's company.
	AppCompany string
	// CompanyID is the company a company install is for (CompanyName its
	// name); CompanyChoices, while none is chosen, the companies the
	// person may choose from.
	CompanyID, CompanyName string
	CompanyChoices         []companyChoice
	Accounts               []accounts.Account
	Chosen                 map[string]bool
}

// companyChoice is a link to the page for one company's accounts.
type companyChoice struct{ ID, Name, URL string }

// consentRefused is the page of a request that cannot be trusted with a
// redirect.
func consentRefused(err error) error {
	return &pageError{Status: http.StatusBadRequest, Title: "This app cannot be installed from this link",
		Message: "The link that brought you here is not a valid request of a registered app (" + err.Error() + "), so you were not sent back to the app. Tell the app's developer."}
}

// refusal is the answer to a failed check of the request: its error page,
// or the failure itself (storage).
func refusal(err error) error {
	for _, known := range []error{marketplace.ErrUnknownClient, marketplace.ErrRedirectNotAllowed, marketplace.ErrRedirectFragment, marketplace.ErrScopeNotAllowed, marketplace.ErrUnsupportedResponse} {
		if errors.Is(err, known) {
			return consentRefused(err)
		}
	}
	return err
}

// safeNext reports whether next is where the sign-in page may send the
// browser afterwards: the consent page, on this site.
func safeNext(next string) bool { return strings.HasPrefix(next, consentPath+"?") }

// consentVisit resumes the session, sending a signed-out browser to the
// sign-in page and back here afterwards.
func (p *Portal) consentVisit(w http.ResponseWriter, r *http.Request, req authRequest) (*visit, error) {
	if _, err := r.Cookie(sessionCookie); err != nil && r.Method == http.MethodGet {
		return nil, redirect{Base + "/sign-in?next=" + url.QueryEscape(consentPath+"?"+req.query())}
	}
	v, err := p.resume(w, r)
	var rd redirect
	if errors.As(err, &rd) && r.Method == http.MethodGet {
		return nil, redirect{rd.to + sep(rd.to) + "next=" + url.QueryEscape(consentPath+"?"+req.query())}
	}
	return v, err
}

func sep(u string) string {
	if strings.Contains(u, "?") {
		return "&"
	}
	return "?"
}

// consentData checks the request and gathers what the page shows: the
// accounts the person may install the app into (an agency admin's company
// accounts for a company app).
func (p *Portal) consentData(r *http.Request, v *visit, req authRequest) (*consentData, error) {
	app, asked, err := p.apps.Authorization(r.Context(), req.ResponseType, req.ClientID, req.RedirectURI, req.Scope)
	if err != nil {
		return nil, refusal(err)
	}
	d := &consentData{Request: req, App: app, Company: app.Target == marketplace.TargetCompany, Chosen: map[string]bool{}}
	if d.AppCompany, err = p.apps.CompanyName(r.Context(), app.CompanyID); err != nil {
		return nil, err
	}
	for _, r := range app.Receives(asked) {
		if r.Type.Routed {
			d.Routed = append(d.Routed, r.Type.Name)
		} else {
			d.Receives = append(d.Receives, r)
		}
	}
	for _, s := range asked {
		cs := consentScope{Scope: s}
		for _, op := range operations.All {
			if op.Scope == s {
				cs.Operations = append(cs.Operations, op.ID())
			}
		}
		for _, r := range d.Receives {
			if slices.Contains(r.Scopes, s) {
				cs.Events = append(cs.Events, r.Type.Name)
			}
		}
		d.Scopes = append(d.Scopes, cs)
	}
	all, err := p.ids.Administered(r.Context(), v.person)
	if err != nil {
		return nil, err
	}
	if d.Company {
		// An install belongs to one company: the page offers one company's
		// accounts at a time, the chosen one's (the only one, for most).
		companies := agencyCompanies(v.person)
		switch {
		case slices.Contains(companies, req.CompanyID):
			d.CompanyID = req.CompanyID
		case len(companies) == 1:
			d.CompanyID = companies[0]
		}
		if d.CompanyID == "" && len(companies) > 1 {
			for _, c := range companies {
				choice := req
				choice.CompanyID = c
				name, err := p.apps.CompanyName(r.Context(), c)
				if err != nil {
					return nil, err
				}
				d.CompanyChoices = append(d.CompanyChoices, companyChoice{ID: c, Name: name, URL: consentPath + "?" + choice.query()})
			}
		}
		if d.CompanyID != "" {
			if d.CompanyName, err = p.apps.CompanyName(r.Context(), d.CompanyID); err != nil {
				return nil, err
			}
		}
		all = slices.DeleteFunc(all, func(a accounts.Account) bool { return a.CompanyID != d.CompanyID || d.CompanyID == "" })
	}
	d.Accounts = all
	return d, nil
}

// agencyCompanies are the companies the person is an agency admin of: the
// ones whose accounts they may approve a company app for.
func agencyCompanies(person *identity.Person) []string {
	var out []string
	for _, u := range person.Users {
		if u.Role == "admin" && u.Type == "agency" {
			out = append(out, u.CompanyID)
		}
	}
	return out
}

// checkRequest refuses a request that is not the app's with an error page,
// before anyone signs in, and sends one whose PKCE parameters are refused
// back to the app as invalid_request (RFC 7636 4.4.1): its redirect URI was
// checked.
func (p *Portal) checkRequest(r *http.Request, req authRequest) error {
	app, _, err := p.apps.Authorization(r.Context(), req.ResponseType, req.ClientID, req.RedirectURI, req.Scope)
	if err != nil {
		return refusal(err)
	}
	if err := marketplace.CheckChallenge(app, req.CodeChallenge, req.CodeChallengeMethod); err != nil {
		back := backToApp(req)
		q := back.Query()
		q.Set("error", "invalid_request")
		q.Set("error_description", err.Error())
		back.RawQuery = q.Encode()
		return redirect{back.String()}
	}
	return nil
}

// backToApp is the request's redirect URI (registered, so it parses) with
// its state.
func backToApp(req authRequest) *url.URL {
	back, _ := url.Parse(req.RedirectURI)
	if req.State != "" {
		q := back.Query()
		q.Set("state", req.State)
		back.RawQuery = q.Encode()
	}
	return back
}

func (p *Portal) consentPage(w http.ResponseWriter, r *http.Request) error {
	req := authRequestOf(r.URL.Query())
	if err := p.checkRequest(r, req); err != nil {
		return err
	}
	v, err := p.consentVisit(w, r, req)
	if err != nil {
		return err
	}
	d, err := p.consentData(r, v, req)
	if err != nil {
		return err
	}
	p.renderConsent(w, http.StatusOK, v, d, nil)
	return nil
}

// renderConsent shows the page. Its policy lets the form's answer go on to
// the app's redirect URI (form-action governs a form's redirects too).
func (p *Portal) renderConsent(w http.ResponseWriter, status int, v *visit, d *consentData, problems []string) {
	if u, err := url.Parse(d.Request.RedirectURI); err == nil {
		w.Header().Set("Content-Security-Policy", strings.Replace(w.Header().Get("Content-Security-Policy"),
			"form-action 'self'", "form-action 'self' "+u.Scheme+"://"+u.Host, 1))
	}
	p.render(w, status, "consent", &view{Title: "Install " + d.App.Name, Person: v.person, CSRF: v.session.CSRF, Errors: problems, Data: d})
}

// consent is the form's answer: Allow or Cancel.
func (p *Portal) consent(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return errStaleForm
	}
	req := authRequestOf(r.PostForm)
	v, err := p.consentVisit(w, r, req)
	if err != nil {
		return err
	}
	if !v.session.CheckCSRF(r.PostFormValue("csrf")) {
		return errStaleForm
	}
	if err := p.checkRequest(r, req); err != nil {
		return err
	}
	d, err := p.consentData(r, v, req)
	if err != nil {
		return err
	}
	back := backToApp(req)
	q := back.Query()
	if r.PostFormValue("decision") != "allow" {
		q.Set("error", "access_denied")
		back.RawQuery = q.Encode()
		return redirect{back.String()}
	}
	consent := marketplace.Consent{App: d.App, RedirectURI: req.RedirectURI, UserID: v.person.ActorID(), By: actor(v),
		CodeChallenge: req.CodeChallenge, CodeChallengeMethod: req.CodeChallengeMethod}
	for _, s := range d.Scopes {
		consent.Scopes = append(consent.Scopes, s.Scope)
	}
	allowed := func(id string) *accounts.Account {
		i := slices.IndexFunc(d.Accounts, func(a accounts.Account) bool { return a.ID == id })
		if i < 0 {
			return nil
		}
		return &d.Accounts[i]
	}
	if d.Company {
		if d.CompanyID == "" {
			p.renderConsent(w, http.StatusUnprocessableEntity, v, d, []string{"Choose the company to install the app for first: an install belongs to one company."})
			return nil
		}
		consent.CompanyID = d.CompanyID
		for _, id := range r.PostForm["approved"] {
			a := allowed(id)
			if a == nil {
				// Never a code for part of the choice: the form was not this
				// page's (another company's account, or one not the person's).
				p.renderConsent(w, http.StatusUnprocessableEntity, v, d, []string{"An install belongs to one company: choose accounts of company " + d.CompanyID + " only (" + id + " is not one you may install it into)."})
				return nil
			}
			consent.Approved = append(consent.Approved, a.ID)
			d.Chosen[a.ID] = true
		}
		if len(consent.Approved) == 0 {
			p.renderConsent(w, http.StatusUnprocessableEntity, v, d, []string{"Choose at least one account to install the app into."})
			return nil
		}
	} else {
		a := allowed(r.PostFormValue("account"))
		if a == nil {
			p.renderConsent(w, http.StatusUnprocessableEntity, v, d, []string{"Choose the account to install the app into."})
			return nil
		}
		consent.AccountID, consent.CompanyID = a.ID, a.CompanyID
	}
	code, err := p.apps.IssueCode(r.Context(), consent)
	if err != nil {
		return err
	}
	q.Set("code", code)
	back.RawQuery = q.Encode()
	return redirect{back.String()}
}
