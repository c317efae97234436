package portal

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/scopes"
)

// RotationAdvised is the age past which a token's row recommends rotating
// it.
const RotationAdvised = 90 * 24 * time.Hour

// auditLength is how many audit entries the audit page shows.
const auditLength = 200

// home sends a signed-in person to their account (or their list of
// accounts), anyone else to the sign-in page.
func (p *Portal) home(w http.ResponseWriter, r *http.Request) error {
	v, err := p.resume(w, r)
	if err != nil {
		return err
	}
	accts, err := p.ids.Administered(r.Context(), v.person)
	if err != nil {
		return err
	}
	if len(accts) == 1 {
		return redirect{accountPath(accts[0].ID)}
	}
	return redirect{Base + "/accounts"}
}

// Notices a redirect can ask a page to show (never text from the request).
var notices = map[string]string{
	"ended":     "Your session has ended. Sign in again.",
	"welcome":   "Your password is set. Sign in with it.",
	"signedout": "You have signed out.",
}

// signInData is the sign-in form: the address typed, and where to go
// afterwards (the consent page that sent the browser here, if any).
type signInData struct{ Email, Next string }

// ForApp tells whether the sign-in leads to the consent page.
func (d signInData) ForApp() bool { return safeNext(d.Next) }

// afterSignIn is where a signed-in browser goes: next when it is safe.
func afterSignIn(next string) redirect {
	if safeReturn(next) {
		return redirect{next}
	}
	return redirect{Base}
}

func (p *Portal) signInPage(w http.ResponseWriter, r *http.Request) error {
	next := r.URL.Query().Get("next")
	if c, err := r.Cookie(sessionCookie); err == nil {
		if _, _, err := p.ids.Resume(r.Context(), c.Value); err == nil {
			return afterSignIn(next)
		}
	}
	if !safeReturn(next) {
		next = ""
	}
	v := &view{Title: "Sign in", CSRF: p.formToken(w, r), Data: signInData{Next: next, Email: p.welcomeEmail(w, r)}}
	for key, msg := range notices {
		if r.URL.Query().Has(key) {
			v.Notice = msg
		}
	}
	p.render(w, http.StatusOK, "sign-in", v)
	return nil
}

func (p *Portal) signIn(w http.ResponseWriter, r *http.Request) error {
	if err := checkFormToken(r); err != nil {
		return err
	}
	email := strings.TrimSpace(r.PostFormValue("email"))
	_, sess, err := p.ids.SignIn(r.Context(), email, r.PostFormValue("password"), clientAddr(r))
	var se *identity.SignInError
	if errors.As(err, &se) {
		status := http.StatusUnauthorized
		if se.Throttled {
			status = http.StatusTooManyRequests
			setRetryAfter(w, se.RetryAfter)
			noteRefusal(r, "sign-in throttled")
		}
		if len(email) > 254 {
			email = ""
		}
		next := r.PostFormValue("next")
		if !safeReturn(next) {
			next = ""
		}
		v := &view{Title: "Sign in", CSRF: p.formToken(w, r), Problem: "You are not signed in.", Data: signInData{Email: email, Next: next}}
		if se.Throttled {
			v.withProblems([]fieldProblem{{Message: se.Message}})
		} else {
			// Which of the two was wrong is not told: both are marked.
			v.withProblems([]fieldProblem{{Field: "email", Message: se.Message}})
			v.Invalid["password"] = se.Message
		}
		p.render(w, status, "sign-in", v)
		return nil
	}
	if err != nil {
		return err
	}
	p.setCookie(w, r, sessionCookie, sess.ID, 0)
	return afterSignIn(r.PostFormValue("next"))
}

func (p *Portal) signOut(w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(sessionCookie); err == nil {
		_, sess, err := p.ids.Resume(r.Context(), c.Value)
		if err == nil {
			if !sess.CheckCSRF(r.PostFormValue("csrf")) {
				return errStaleForm
			}
			if err := p.ids.End(r.Context(), sess.ID); err != nil {
				return err
			}
		}
	}
	p.setCookie(w, r, sessionCookie, "", -1)
	return redirect{Base + "/sign-in?signedout=1"}
}

type inviteData struct {
	Email string
	Code  string
}

// inviteError is the page of a link that cannot be used (any more).
func inviteError(err error) error {
	status := http.StatusGone
	if errors.Is(err, identity.ErrInviteUnknown) {
		status = http.StatusNotFound
	}
	return &pageError{Status: status, Title: "This link cannot be used", Message: err.Error(), Back: Base + "/sign-in", BackLabel: "Sign in"}
}

func isInviteError(err error) bool {
	return errors.Is(err, identity.ErrInviteUnknown) || errors.Is(err, identity.ErrInviteUsed) || errors.Is(err, identity.ErrInviteExpired)
}

func (p *Portal) invitePage(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	inv, err := p.ids.PeekInvite(r.Context(), code)
	if isInviteError(err) {
		return inviteError(err)
	}
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "invite", &view{Title: "Set your password", CSRF: p.formToken(w, r), Data: inviteData{Email: inv.Email, Code: code}})
	return nil
}

func (p *Portal) redeemInvite(w http.ResponseWriter, r *http.Request) error {
	if err := checkFormToken(r); err != nil {
		return err
	}
	code := r.PostFormValue("code")
	inv, err := p.ids.RedeemInvite(r.Context(), code, r.PostFormValue("password"), r.PostFormValue("confirm"), clientAddr(r))
	var pwe *identity.PasswordError
	var se *identity.SignInError
	switch {
	case err == nil:
		// The sign-in page fills in the address the password was set for;
		// a cookie carries it there, not the URL (history, access logs).
		p.setCookie(w, r, welcomeCookie, url.QueryEscape(inv.Email), welcomeAge)
		return redirect{Base + "/sign-in?welcome=1"}
	case isInviteError(err):
		return inviteError(err)
	case errors.As(err, &se):
		setRetryAfter(w, se.RetryAfter)
		return &pageError{Status: http.StatusTooManyRequests, Title: "Too many attempts", Message: se.Message, Refusal: "invite attempts throttled"}
	case errors.As(err, &pwe):
		inv, perr := p.ids.PeekInvite(r.Context(), code)
		if perr != nil {
			return inviteError(perr)
		}
		p.render(w, http.StatusUnprocessableEntity, "invite", (&view{Title: "Set your password", CSRF: p.formToken(w, r),
			Problem: "Your password is not set.", Data: inviteData{Email: inv.Email, Code: code}}).withProblems([]fieldProblem{{Field: "password", Message: pwe.Message}}))
		return nil
	default:
		return err
	}
}

func (p *Portal) accountsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	accts, err := p.ids.Administered(r.Context(), v.person)
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "accounts", &view{Title: "Your accounts", Person: v.person, CSRF: v.session.CSRF, Data: accts})
	return nil
}

// tokenRow is one token of the API settings page.
type tokenRow struct {
	auth.Info
	Status          string // "active", "expires ...", "expired ...", "revoked ..."
	Usable          bool
	Rotatable       bool
	RotationAdvised bool
	Editable        bool
	LastUsed        string
	ReplacedByName  string
	ReplacesName    string
	// Summary says what the token's scopes let it do.
	Summary           scopeSummary
	CreatedAtReadable string
}

func (p *Portal) rows(list []auth.Info) []tokenRow {
	now := p.clock.Now()
	rows := make([]tokenRow, 0, len(list))
	names := map[string]string{}
	for _, info := range list {
		names[info.TokenID] = info.Name
	}
	for _, info := range list {
		row := tokenRow{Info: info, Usable: info.Usable(now), Summary: summarize(info.Scopes, info.Kind),
			ReplacedByName: names[info.ReplacedBy], ReplacesName: names[info.Replaces]}
		switch info.Status(now) {
		case auth.StatusActive:
			row.Status = "Active"
		case auth.StatusExpiring:
			row.Status = "Expires at " + formatTime(info.ExpiresAt)
		case auth.StatusExpired:
			row.Status = "Expired at " + formatTime(info.ExpiresAt)
		default:
			row.Status = "Revoked at " + formatTime(info.RevokedAt)
		}
		row.Rotatable = row.Usable && info.ReplacedBy == ""
		created := clock.Parse(info.CreatedAt)
		row.RotationAdvised = row.Rotatable && !created.IsZero() && now.Sub(created) > RotationAdvised
		row.LastUsed = formatTime(info.LastUsedAt)
		row.Editable = info.RevokedAt == ""
		rows = append(rows, row)
	}
	// Working tokens first, newest first within each group.
	sortLiveFirst(rows, func(r tokenRow) (bool, string) { return r.Usable, r.CreatedAt })
	return rows
}

// sortLiveFirst orders a list's rows as the pages show them: the live ones
// (working tokens, installed apps) first, the newest first within each
// group, by the time key gives.
func sortLiveFirst[T any](rows []T, key func(T) (live bool, at string)) {
	slices.SortStableFunc(rows, func(a, b T) int {
		aLive, aAt := key(a)
		bLive, bAt := key(b)
		if aLive != bLive {
			if aLive {
				return -1
			}
			return 1
		}
		return strings.Compare(bAt, aAt)
	})
}

// Settings page notices, by the code a redirect names: of a token, or of
// an installed app.
var (
	settingsNotices = map[string]string{
		"created":         "The token %q is created. Its value was shown once; the programs that use it need it now.",
		"rotated":         "The token %q is rotated: the new token's row says which token it replaces, and that token's row when it stops.",
		"edited":          "The token %q is saved with its new name and description.",
		"unchanged":       "The token %q already had this name and description: nothing was changed.",
		"revoked":         "The token %q is revoked: its next API request gets 401.",
		"already-revoked": "The token %q was revoked already: nothing was changed.",
	}
	installNotices = map[string]string{
		"uninstalled":         "The app %q is uninstalled: every token it held for this account is revoked.",
		"already-uninstalled": "The app %q was uninstalled already: nothing was changed.",
	}
)

// settingsData is the API settings page: the working tokens, the ended
// ones (revoked or expired, folded away under the working ones), the
// installed apps.
type settingsData struct {
	Rows, Ended []tokenRow
	Installs    []installRow
}

func (p *Portal) settingsPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	list, err := p.tokens.List(r.Context(), v.account.ID)
	if err != nil {
		return err
	}
	installs, err := p.apps.AccountInstalls(r.Context(), v.account.ID)
	if err != nil {
		return err
	}
	rows := p.rows(list)
	working := slices.IndexFunc(rows, func(r tokenRow) bool { return !r.Usable })
	if working < 0 {
		working = len(rows)
	}
	view := &view{Title: "API settings", Person: v.person, CSRF: v.session.CSRF, Account: v.account,
		Data: settingsData{Rows: rows[:working], Ended: rows[working:], Installs: installRows(installs)}}
	q := r.URL.Query()
	if format, ok := settingsNotices[q.Get("notice")]; ok {
		for _, info := range list {
			if info.TokenID == q.Get("token") {
				view.Notice = fmt.Sprintf(format, info.Name)
			}
		}
	}
	if format, ok := installNotices[q.Get("notice")]; ok {
		for _, inst := range installs {
			if inst.AppID == q.Get("app") {
				view.Notice = fmt.Sprintf(format, inst.AppName)
			}
		}
	}
	p.render(w, http.StatusOK, "settings", view)
	return nil
}

type newTokenData struct {
	Name, Description string
	Scopes            scopeForm
	MaxName, MaxDesc  int
}

func (p *Portal) newTokenPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	p.render(w, http.StatusOK, "new-token", &view{Title: "Generate new token", Person: v.person, CSRF: v.session.CSRF, Account: v.account,
		Data: newTokenData{Scopes: newScopeForm([]string{DefaultScope}), MaxName: auth.MaxNameLength, MaxDesc: auth.MaxDescriptionLength}})
	return nil
}

// labelsForm reads and checks a token's name and description, of the
// generate form and the edit form alike, saying what is wrong in words for
// the page.
func labelsForm(r *http.Request) (name, description string, problems []fieldProblem) {
	name = strings.TrimSpace(r.PostFormValue("name"))
	description = strings.TrimSpace(r.PostFormValue("description"))
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		problems = append(problems, fieldProblem{"name", "Token name is required."})
	case n > auth.MaxNameLength:
		problems = append(problems, fieldProblem{"name", fmt.Sprintf("Token name must be at most %d characters (it has %d).", auth.MaxNameLength, n)})
	}
	if n := utf8.RuneCountInString(description); n > auth.MaxDescriptionLength {
		problems = append(problems, fieldProblem{"description", fmt.Sprintf("Description must be at most %d characters (it has %d).", auth.MaxDescriptionLength, n)})
	}
	// The rule of every stored text, each problem beside its field.
	nameProblem, descriptionProblem := auth.TextProblems(name, description)
	if nameProblem != "" {
		problems = append(problems, fieldProblem{"name", nameProblem + "."})
	}
	if descriptionProblem != "" {
		problems = append(problems, fieldProblem{"description", descriptionProblem + "."})
	}
	return name, description, problems
}

// tokenForm reads and checks the generate form.
func tokenForm(r *http.Request) (name, description string, chosen []string, problems []fieldProblem) {
	name, description, problems = labelsForm(r)
	chosen = r.PostForm["scope"]
	if len(chosen) == 0 {
		problems = append(problems, fieldProblem{"scopes", "Choose at least one scope."})
	}
	for _, s := range chosen {
		if !scopes.Known(s) {
			problems = append(problems, fieldProblem{"scopes", fmt.Sprintf("%q is not a known scope.", clip(s, 64))})
		} else if why := unusable(s, auth.KindPrivate); why != "" {
			// The form does not offer it; a hand-made request is told why.
			problems = append(problems, fieldProblem{"scopes", why})
		}
	}
	return name, description, chosen, problems
}

// clip shortens a value quoted back on a page.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func (p *Portal) createToken(w http.ResponseWriter, r *http.Request, v *visit) error {
	name, description, chosen, problems := tokenForm(r)
	if len(problems) > 0 {
		p.render(w, http.StatusUnprocessableEntity, "new-token", (&view{Title: "Generate new token", Person: v.person, CSRF: v.session.CSRF,
			Account: v.account,
			Data: newTokenData{Name: clip(name, auth.MaxNameLength), Description: clip(description, auth.MaxDescriptionLength),
				Scopes: newScopeForm(chosen), MaxName: auth.MaxNameLength, MaxDesc: auth.MaxDescriptionLength}}).withProblems(problems))
		return nil
	}
	value, info, err := p.tokens.Create(r.Context(), auth.NewToken{
		AccountID: v.account.ID, Kind: auth.KindPrivate, Scopes: chosen, Name: name, Description: description, By: actor(v),
	})
	if err != nil {
		return err
	}
	return p.reveal(r, v, info, value)
}

type editData struct {
	Row               tokenRow
	Name, Description string
	MaxName, MaxDesc  int
}

// editView is the edit form of the path's token, filled with name and
// description.
func (p *Portal) editView(r *http.Request, v *visit, name, description string) (*view, error) {
	info, err := p.accountToken(r, v)
	if err != nil {
		return nil, err
	}
	return &view{Title: "Edit token", Person: v.person, CSRF: v.session.CSRF, Account: v.account,
		Data: editData{Row: p.rows([]auth.Info{info})[0], Name: name, Description: description, MaxName: auth.MaxNameLength, MaxDesc: auth.MaxDescriptionLength}}, nil
}

func (p *Portal) editPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	info, err := p.accountToken(r, v)
	if err != nil {
		return err
	}
	view, err := p.editView(r, v, info.Name, info.Description)
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "edit", view)
	return nil
}

func (p *Portal) editToken(w http.ResponseWriter, r *http.Request, v *visit) error {
	name, description, problems := labelsForm(r)
	if len(problems) == 0 {
		before, err := p.accountToken(r, v)
		if err != nil {
			return err
		}
		info, err := p.tokens.Edit(r.Context(), auth.Edit{AccountID: v.account.ID, TokenID: before.TokenID, Name: name, Description: description, By: actor(v)})
		switch {
		case errors.Is(err, auth.ErrTokenUnknown):
			return tokenNotFound(v.account.ID)
		case errors.Is(err, auth.ErrAlreadyRevoked):
			return &pageError{Status: http.StatusConflict, Title: "This token cannot be edited",
				Message: "A revoked token keeps the name it was revoked with, as the audit list tells it. Nothing was changed.",
				Back:    accountPath(v.account.ID), BackLabel: "Back to API settings"}
		case apierror.Status(err, 0) == http.StatusUnprocessableEntity: // a rule of the store's the form does not know
			problems = append(problems, fieldProblem{"name", "The name or description was refused (" + err.Error() + ")."})
		case err != nil:
			return err
		default:
			notice := "edited"
			if before.Name == info.Name && before.Description == info.Description {
				notice = "unchanged"
			}
			return redirect{accountPath(v.account.ID) + "?notice=" + notice + "&token=" + info.TokenID}
		}
	}
	view, err := p.editView(r, v, clip(name, auth.MaxNameLength), clip(description, auth.MaxDescriptionLength))
	if err != nil {
		return err
	}
	p.render(w, http.StatusUnprocessableEntity, "edit", view.withProblems(problems))
	return nil
}

// reveal keeps a new value with the session and sends the browser to the
// page that shows it once (POST, redirect, GET: reloading the answer of
// the form never creates a second token nor shows the value twice).
func (p *Portal) reveal(r *http.Request, v *visit, info auth.Info, value string) error {
	if err := p.ids.Stash(r.Context(), v.session, identity.Reveal{AccountID: info.AccountID, TokenID: info.TokenID, Value: value}); err != nil {
		return err
	}
	return redirect{accountPath(v.account.ID) + "/tokens/shown-once"}
}

func actor(v *visit) auth.Actor {
	return auth.Actor{ID: v.person.ActorID(), Name: v.person.Name() + " <" + v.person.Email + ">"}
}

type revealData struct {
	Value   string
	Info    auth.Info
	Summary scopeSummary
	// Done is the settings page's address with the notice of this change.
	Done string
}

// revealPage shows the stashed value and so uses it up. Only a GET of the
// value's own account does: a HEAD (a link checker, a prefetch) is refused
// before it (getOnly), and another account's page leaves it where it is.
func (p *Portal) revealPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	rv, err := p.ids.TakeReveal(r.Context(), v.session, v.account.ID, "")
	if err != nil {
		return err
	}
	if rv == nil {
		return &pageError{Status: http.StatusGone, Title: "Shown once already",
			Message: "A token's value is shown only once, right after it is created. It cannot be shown again: if it was not copied, revoke the token and generate a new one.",
			Back:    accountPath(v.account.ID), BackLabel: "Back to API settings"}
	}
	info, err := p.tokens.Get(r.Context(), v.account.ID, rv.TokenID)
	if err != nil {
		return err
	}
	notice, done := fmt.Sprintf("The token %q is created.", info.Name), "created"
	if info.Replaces != "" {
		done = "rotated"
		old, err := p.tokens.Get(r.Context(), v.account.ID, info.Replaces)
		if err != nil {
			return err
		}
		switch {
		case old.RevokedAt != "":
			notice = fmt.Sprintf("The token %q is rotated: this new token replaces %s, which is revoked.", info.Name, old.TokenID)
		default:
			notice = fmt.Sprintf("The token %q is rotated: this new token replaces %s, which keeps working until %s.", info.Name, old.TokenID, formatTime(old.ExpiresAt))
		}
	}
	p.render(w, http.StatusOK, "reveal", &view{Title: "Your new token", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Notice: notice,
		Data: revealData{Value: rv.Value, Info: info, Summary: summarize(info.Scopes, info.Kind), Done: accountPath(v.account.ID) + "?notice=" + done + "&token=" + info.TokenID}})
	return nil
}

// accountToken is the path's token of the visit's account.
func (p *Portal) accountToken(r *http.Request, v *visit) (auth.Info, error) {
	info, err := p.tokens.Get(r.Context(), v.account.ID, r.PathValue("token"))
	if errors.Is(err, auth.ErrTokenUnknown) {
		return auth.Info{}, tokenNotFound(v.account.ID)
	}
	return info, err
}

type tokenActionData struct {
	Row       tokenRow
	KeepUntil string
	// Until is KeepUntil as the form sends it back: the end the page
	// promises is the end the old token gets.
	Until   string
	KeepOld bool
}

func (p *Portal) tokenAction(r *http.Request, v *visit, page, title string) (*view, error) {
	info, err := p.accountToken(r, v)
	if err != nil {
		return nil, err
	}
	// A whole minute, as the page shows it, and never later than the grace
	// period allows when the form comes back.
	until := p.clock.Now().Add(auth.RotationGrace).Truncate(time.Minute)
	return &view{Title: title, Person: v.person, CSRF: v.session.CSRF, Account: v.account,
		Data: tokenActionData{Row: p.rows([]auth.Info{info})[0], KeepUntil: formatMinute(until), Until: until.UTC().Format(time.RFC3339), KeepOld: true}}, nil
}

func (p *Portal) revokePage(w http.ResponseWriter, r *http.Request, v *visit) error {
	view, err := p.tokenAction(r, v, "revoke", "Revoke token")
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "revoke", view)
	return nil
}

func (p *Portal) revokeToken(w http.ResponseWriter, r *http.Request, v *visit) error {
	info, err := p.tokens.RevokeInAccount(r.Context(), v.account.ID, r.PathValue("token"), actor(v))
	notice := "revoked"
	switch {
	case errors.Is(err, auth.ErrTokenUnknown):
		return tokenNotFound(v.account.ID)
	case errors.Is(err, auth.ErrAlreadyRevoked):
		notice = "already-revoked"
	case err != nil:
		return err
	}
	return redirect{accountPath(v.account.ID) + "?notice=" + notice + "&token=" + info.TokenID}
}

func (p *Portal) rotatePage(w http.ResponseWriter, r *http.Request, v *visit) error {
	view, err := p.tokenAction(r, v, "rotate", "Rotate token")
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "rotate", view)
	return nil
}

func (p *Portal) rotateToken(w http.ResponseWriter, r *http.Request, v *visit) error {
	var keep bool
	var problem string
	until, _ := time.Parse(time.RFC3339, r.PostFormValue("until"))
	switch r.PostFormValue("old") {
	case "keep":
		keep = true
		if r.PostForm.Has("until") && !until.After(p.clock.Now()) { // without it: the full grace period
			problem = "The end this page promised for the current token has passed (the page was open a long time): check the new end and rotate again."
		}
	case "revoke":
	default:
		problem = "Choose what happens to the current token: revoked now, or kept working for " + clock.Span(auth.RotationGrace) + "."
	}
	if problem != "" {
		view, err := p.tokenAction(r, v, "rotate", "Rotate token")
		if err != nil {
			return err
		}
		p.render(w, http.StatusUnprocessableEntity, "rotate", view.withProblems([]fieldProblem{{"old-keep", problem}}))
		return nil
	}
	value, created, _, err := p.tokens.Rotate(r.Context(), auth.Rotation{AccountID: v.account.ID, TokenID: r.PathValue("token"), KeepOld: keep, Until: until, By: actor(v)})
	switch {
	case errors.Is(err, auth.ErrTokenUnknown):
		return tokenNotFound(v.account.ID)
	case errors.Is(err, auth.ErrTokenInactive), errors.Is(err, auth.ErrAlreadyRotated):
		return &pageError{Status: http.StatusConflict, Title: "This token cannot be rotated",
			Message: "Only a working token that has not been rotated yet can be rotated (" + err.Error() + "). Nothing was changed.",
			Back:    accountPath(v.account.ID), BackLabel: "Back to API settings"}
	case err != nil:
		return err
	}
	return p.reveal(r, v, created, value)
}

func (p *Portal) auditPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	entries, err := p.tokens.Audit(r.Context(), v.account.ID, auditLength)
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "audit", &view{Title: "Audit list", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: entries})
	return nil
}

// asset serves the embedded stylesheet and script. They may be cached
// briefly: they change only with a deployment.
func (p *Portal) asset(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("name")
	raw, err := fs.ReadFile(p.assets, name)
	if err != nil || strings.HasPrefix(name, ".") {
		return errNotFound
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(raw)
	return nil
}
