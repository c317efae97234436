package portal

import (
	"embed"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
)

// What a receiver needs to trust a delivery: the Webhooks page's
// "Verifying deliveries" (the published public key, the headers, the bytes
// signed, and the receiver's code for Node and Go, rendered from the very
// files a test runs on real deliveries: receiver/), and each endpoint's
// signing secret, shown once when it is made (the endpoint added, or its
// secret rotated).

//go:embed receiver/verify.js receiver/verify.go
var receiverFiles embed.FS

// receiverCode is the receiver's code the page shows, by language.
type receiverCode struct{ Node, Go string }

func loadReceiverCode() (receiverCode, error) {
	node, err := receiverFiles.ReadFile("receiver/verify.js")
	if err != nil {
		return receiverCode{}, err
	}
	goCode, err := receiverFiles.ReadFile("receiver/verify.go")
	return receiverCode{Node: string(node), Go: string(goCode)}, err
}

// verifying is the Webhooks page's "Verifying deliveries".
type verifying struct {
	// PublicKey is the published key; its PEM is "" before the deliverer
	// (or apps webhook-key) has published one.
	PublicKey deliveries.PublicKey
	Code      receiverCode
	// Tolerance is the libraries' window for webhook-timestamp.
	Tolerance string
}

// standardTolerance is how far from now a Standard Webhooks library
// accepts webhook-timestamp (the JavaScript and Go libraries' 5 minutes).
const standardTolerance = 5 * time.Minute

func (p *Portal) verifying(r *http.Request) (verifying, error) {
	key, err := deliveries.PublishedKey(r.Context(), p.table)
	if err != nil && !errors.Is(err, deliveries.ErrNoPublicKey) {
		return verifying{}, err
	}
	return verifying{PublicKey: key, Code: p.receiverCode, Tolerance: clock.Span(standardTolerance)}, nil
}

// hookSecretPattern is the route of the page that shows an endpoint's new
// signing secret once: like revealPattern, only its GET takes it.
const hookSecretPattern = "GET " + Base + "/accounts/{account}/webhooks/shown-once"

// revealSecret keeps e's new secret with the session and sends the browser
// to the page that shows it once (POST, redirect, GET, as a token's);
// made says how it was made ("added" or "rotated"), for the page's words.
func (p *Portal) revealSecret(r *http.Request, v *visit, e endpoints.Endpoint, made string) error {
	if err := p.ids.Stash(r.Context(), v.session, identity.Reveal{AccountID: e.AccountID, TokenID: e.ID, Kind: identity.RevealSigningSecret, Value: e.SigningSecret}); err != nil {
		return err
	}
	return redirect{hooksPath(v.account.ID) + "/shown-once?made=" + made}
}

type secretData struct {
	Value string
	Hook  hookRow
	// Added: the endpoint was just added (else its secret was rotated).
	Added bool
	Grace string
	// Done is the list's address with the notice of this change.
	Done string
}

// hookSecretPage shows the stashed secret and so uses it up.
func (p *Portal) hookSecretPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	rv, err := p.ids.TakeReveal(r.Context(), v.session, v.account.ID, identity.RevealSigningSecret)
	if err != nil {
		return err
	}
	if rv == nil {
		return &pageError{Status: http.StatusGone, Title: "Shown once already",
			Message: "An endpoint's signing secret is shown only once, right after it is made. It cannot be shown again: if it was not copied, rotate the endpoint's signing secret to make a new one.",
			Back:    hooksPath(v.account.ID), BackLabel: "Back to webhooks"}
	}
	e, err := p.endpoints.Get(r.Context(), v.account.ID, rv.TokenID)
	if errors.Is(err, endpoints.ErrNoEndpoint) {
		return hookNotFound(v.account.ID)
	}
	if err != nil {
		return err
	}
	data := secretData{Value: rv.Value, Hook: p.newHookRow(e), Added: r.URL.Query().Get("made") == "added", Grace: clock.Span(endpoints.SecretGrace)}
	notice := "rotated"
	if data.Added {
		notice = "added"
	}
	data.Done = hooksPath(v.account.ID) + "?notice=" + notice + "&webhook=" + e.ID
	p.render(w, http.StatusOK, "webhook-secret", &view{Title: "The endpoint's signing secret", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: data})
	return nil
}

type rotateSecretData struct {
	Hook hookRow
	// KeepUntil is when the current secret would stop signing if kept.
	KeepUntil, Grace string
}

func (p *Portal) rotateSecretView(r *http.Request, v *visit) (*view, error) {
	row, err := p.accountHook(r, v)
	if err != nil {
		return nil, err
	}
	return &view{Title: "Rotate signing secret", Person: v.person, CSRF: v.session.CSRF, Account: v.account,
		Data: rotateSecretData{Hook: row, KeepUntil: formatMinute(p.clock.Now().Add(endpoints.SecretGrace)), Grace: clock.Span(endpoints.SecretGrace)}}, nil
}

func (p *Portal) rotateSecretPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	view, err := p.rotateSecretView(r, v)
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "webhook-rotate", view)
	return nil
}

// rotateSecret makes the path's endpoint a new signing secret, keeping the
// current one signing for the grace period or not, as the form says (an
// endpoint without a secret gets its first), and shows it once.
func (p *Portal) rotateSecret(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	var keep bool
	switch r.PostFormValue("old") {
	case "keep":
		keep = true
	case "end":
	case "":
		if row.Secret != nil {
			view, err := p.rotateSecretView(r, v)
			if err != nil {
				return err
			}
			problem := fmt.Sprintf("Choose what happens to the current secret: signing beside the new one for %s, or no more from now.", clock.Span(endpoints.SecretGrace))
			p.render(w, http.StatusUnprocessableEntity, "webhook-rotate", view.withProblems([]fieldProblem{{"old-keep", problem}}))
			return nil
		}
	default:
		return errBadForm
	}
	e, err := p.endpoints.RotateSecret(r.Context(), endpoints.Rotation{AccountID: v.account.ID, EndpointID: row.ID, KeepOld: keep, By: actor(v)})
	if errors.Is(err, endpoints.ErrNoEndpoint) {
		return hookNotFound(v.account.ID)
	}
	if err != nil {
		return err
	}
	return p.revealSecret(r, v, e, "rotated")
}
