// Package marketplace holds marketplace apps (OAuth 2.0 clients), their
// authorization codes, installs, the installs' tokens and the webhook events
// installs send, with the transaction that keeps each fact that spans items
// (docs/design.md, "Marketplace apps and OAuth"). The token endpoint
// (package oauth), the portal's consent and installs pages and the admin CLI
// build on it; it links no OAuth library.
package marketplace

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/scopes"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Install targets: an app installs into one account (a location, in the
// public platform's words) or, approved by an agency admin, into the
// company and the accounts chosen.
const (
	TargetLocation = "location"
	TargetCompany  = "company"
)

// User types of the token endpoint (the public platform's words).
const (
	UserLocation = "Location"
	UserCompany  = "Company"
)

// Prefixes of the secrets the OAuth server hands out besides access tokens
// (which are ordinary bpt_ tokens): same format, checksum included.
const (
	SecretPrefix  = "bps_" // client secrets
	CodePrefix    = "bpc_" // authorization codes
	RefreshPrefix = "bpr_" // refresh tokens
)

// SecretGrace is how long an app's previous client secret keeps working
// after a rotation.
const SecretGrace = 24 * time.Hour

// App is a marketplace app: an OAuth 2.0 client of one company.
type App struct {
	ID           string   `dynamodbav:"appId" json:"appId"`
	ClientID     string   `dynamodbav:"clientId" json:"clientId"`
	CompanyID    string   `dynamodbav:"companyId" json:"companyId"`
	Name         string   `dynamodbav:"name" json:"name"`
	RedirectURIs []string `dynamodbav:"redirectUris" json:"redirectUris"`
	Scopes       []string `dynamodbav:"scopes" json:"scopes"`
	WebhookURL   string   `dynamodbav:"webhookUrl,omitempty" json:"webhookUrl,omitempty"`
	// Events are the event types (docs/events.md) the app receives from
	// the accounts it is installed in, besides INSTALL and UNINSTALL, which
	// every app with a webhook URL receives of its own installs.
	Events []string `dynamodbav:"events,omitempty" json:"events,omitempty"`
	Target string   `dynamodbav:"target" json:"target"`
	// RequirePKCE refuses a consent without a PKCE challenge (RFC 7636).
	RequirePKCE bool   `dynamodbav:"requirePkce,omitempty" json:"requirePkce"`
	CreatedAt   string `dynamodbav:"createdAt" json:"createdAt"`
	// SecretRotatedAt is the last rotation of the client secret, if any.
	SecretRotatedAt string `dynamodbav:"secretRotatedAt,omitempty" json:"secretRotatedAt,omitempty"`
}

// appItem is an app with its secrets' hashes; GSI1 lists a company's apps.
type appItem struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	App
	SecretHash string `dynamodbav:"secretHash"`
	// PreviousSecretHash works until PreviousSecretEnds (a rotation's grace).
	PreviousSecretHash string `dynamodbav:"previousSecretHash,omitempty"`
	PreviousSecretEnds string `dynamodbav:"previousSecretEnds,omitempty"`
}

func appKey(appID string) storage.Key { return storage.Key{PK: "APP#" + appID, SK: "APP"} }
func appsOf(companyID string) string  { return "APPS#" + companyID }

// Errors of the app store.
var (
	ErrNoApp     = errors.New("no such app")
	ErrNoCompany = errors.New("the company does not exist")
)

// Apps creates, reads, rotates and deletes apps, and keeps their installs.
type Apps struct {
	table    *storage.Table
	clock    clock.Clock
	tokens   *auth.Tokens
	accounts *accounts.Registry
	// localURLs lets redirect and webhook URLs be http://127.0.0.1 or
	// http://localhost: on a local engine only.
	localURLs bool
}

// New returns the app store on the token store's table; localURLs allows
// loopback http URLs (a local engine).
func New(tokens *auth.Tokens, c clock.Clock, localURLs bool) *Apps {
	return &Apps{table: tokens.Table(), clock: c, tokens: tokens, accounts: accounts.NewRegistry(tokens.Table(), c), localURLs: localURLs}
}

// NewApp is what an app is created with.
type NewApp struct {
	CompanyID    string
	Name         string
	RedirectURIs []string
	Scopes       []string
	WebhookURL   string
	// Events are the event types the app receives: each one it can
	// receive (Receives), or the creation is refused.
	Events      []string
	Target      string
	RequirePKCE bool
}

// MaxAppName bounds an app's name, in characters.
const MaxAppName = 100

func (a *Apps) validate(n *NewApp) error {
	var v validate.Errors
	v.ID("company", n.CompanyID)
	v.Check(strings.TrimSpace(n.Name) != "", "name must not be empty")
	v.MaxLen("name", n.Name, MaxAppName)
	v.Text("name", n.Name)
	if n.Target == "" {
		n.Target = TargetLocation
	}
	v.OneOf("target", n.Target, TargetLocation, TargetCompany)
	if v.Check(len(n.RedirectURIs) > 0, "redirect-uri must be given at least once") {
		for _, u := range n.RedirectURIs {
			if strings.Contains(u, "#") {
				// RFC 6749 3.1.2: the code would land in a fragment.
				v.Add("redirect-uri must not hold a fragment (#...): " + u)
			} else if p := a.urlProblem(u); p != "" {
				v.Add("redirect-uri " + validate.OutsideURLRule + ": " + p)
			}
		}
	}
	if n.WebhookURL != "" {
		v.WebhookURL("webhook-url", n.WebhookURL, a.localURLs)
	}
	if v.Check(len(n.Scopes) > 0, "scopes must name at least one scope") {
		for _, s := range n.Scopes {
			v.Check(scopes.Known(s), fmt.Sprintf("scope %q is not a known scope", s))
		}
	}
	for _, p := range eventProblems(App{Scopes: n.Scopes, Target: n.Target, WebhookURL: n.WebhookURL, Events: dedupe(n.Events)}) {
		v.Add(p)
	}
	return v.Err()
}

// urlProblem is the outside-URL rule (https, a public host), or on a local
// engine an http URL on 127.0.0.1 or localhost.
func (a *Apps) urlProblem(s string) string { return URLProblem(s, a.localURLs) }

// URLProblem is the outside-URL rule of every URL the platform calls or
// sends to (https, a public host), or, when local (a local engine), also an
// http URL on 127.0.0.1 or localhost; "" when s keeps it.
func URLProblem(s string, local bool) string {
	if local && isLoopbackHTTP(s) {
		return ""
	}
	return validate.OutsideURLProblem(s)
}

func isLoopbackHTTP(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" || u.User != nil || u.Fragment != "" {
		return false
	}
	return u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost"
}

// Create registers an app and returns it with its client secret (shown
// once; only its hash is kept).
func (a *Apps) Create(ctx context.Context, n NewApp) (App, string, error) {
	if err := a.validate(&n); err != nil {
		return App{}, "", err
	}
	company, err := storage.Get[accounts.Company](ctx, a.table, accounts.CompanyKey(n.CompanyID))
	if err != nil {
		return App{}, "", err
	}
	if company == nil {
		return App{}, "", ErrNoCompany
	}
	secret, err := auth.GenerateSecret(SecretPrefix)
	if err != nil {
		return App{}, "", err
	}
	suffix, err := auth.GenerateSecret("bpx_")
	if err != nil {
		return App{}, "", err
	}
	id := ids.Hex24()
	app := App{
		ID: id, ClientID: id + "-" + strings.ToLower(suffix[4:12]), CompanyID: n.CompanyID, Name: strings.TrimSpace(n.Name),
		RedirectURIs: dedupe(n.RedirectURIs), Scopes: dedupe(n.Scopes), WebhookURL: n.WebhookURL, Events: dedupe(n.Events), Target: n.Target,
		RequirePKCE: n.RequirePKCE, CreatedAt: clock.Timestamp(a.clock.Now()),
	}
	item := appItem{Key: appKey(id), GSI1PK: appsOf(n.CompanyID), GSI1SK: id, App: app, SecretHash: hashSecret(secret)}
	if err := a.table.Put(ctx, item, storage.ItemAbsent()); err != nil {
		return App{}, "", fmt.Errorf("store app: %w", err)
	}
	return app, secret, nil
}

// List returns the company's apps, oldest id first.
func (a *Apps) List(ctx context.Context, companyID string) ([]App, error) {
	items, err := storage.QueryAll[appItem](ctx, a.table, storage.Query{
		Index: storage.IndexGSI1, Key: expression.Key(storage.AttrGSI1PK).Equal(expression.Value(appsOf(companyID))),
	})
	if err != nil {
		return nil, err
	}
	out := make([]App, len(items))
	for i, it := range items {
		out[i] = it.App
	}
	return out, nil
}

// Get returns an app by id (ErrNoApp when there is none).
func (a *Apps) Get(ctx context.Context, appID string) (App, error) {
	it, err := a.item(ctx, appID)
	if err != nil {
		return App{}, err
	}
	return it.App, nil
}

func (a *Apps) item(ctx context.Context, appID string) (*appItem, error) {
	if validate.IDProblem("app", appID) != "" {
		return nil, ErrNoApp
	}
	it, err := storage.Get[appItem](ctx, a.table, appKey(appID))
	if err != nil {
		return nil, fmt.Errorf("read app: %w", err)
	}
	if it == nil {
		return nil, ErrNoApp
	}
	return it, nil
}

// AppIDOf is the app id a client id starts with (the SDK reads it the same
// way: the part before the first dash).
func AppIDOf(clientID string) string {
	id, _, _ := strings.Cut(clientID, "-")
	return id
}

// ByClientID returns the app whose client id is clientID.
func (a *Apps) ByClientID(ctx context.Context, clientID string) (App, error) {
	app, err := a.Get(ctx, AppIDOf(clientID))
	if err != nil {
		return App{}, err
	}
	if app.ClientID != clientID {
		return App{}, ErrNoApp
	}
	return app, nil
}

// Authenticate checks a client's secret: the current one, or the previous
// one within its grace period. A wrong client or secret is ErrNoApp.
func (a *Apps) Authenticate(ctx context.Context, clientID, secret string) (App, error) {
	it, err := a.item(ctx, AppIDOf(clientID))
	if err != nil {
		return App{}, err
	}
	h := hashSecret(secret)
	switch {
	case it.ClientID != clientID:
	case equalHash(h, it.SecretHash):
		return it.App, nil
	case it.PreviousSecretHash != "" && equalHash(h, it.PreviousSecretHash) && a.clock.Now().Before(clock.Parse(it.PreviousSecretEnds)):
		return it.App, nil
	}
	return App{}, ErrNoApp
}

// RotateSecret gives the app a new client secret (returned, shown once);
// the current one keeps working for SecretGrace. Of rotations racing, each
// applies in turn: the one before the last stays the previous secret.
func (a *Apps) RotateSecret(ctx context.Context, appID string, by auth.Actor) (App, string, error) {
	it, err := a.item(ctx, appID)
	if err != nil {
		return App{}, "", err
	}
	secret, err := auth.GenerateSecret(SecretPrefix)
	if err != nil {
		return App{}, "", err
	}
	now := a.clock.Now().UTC()
	stamp := clock.Timestamp(now)
	upd := expression.Set(expression.Name("secretHash"), expression.Value(hashSecret(secret))).
		Set(expression.Name("previousSecretHash"), expression.Value(it.SecretHash)).
		Set(expression.Name("previousSecretEnds"), expression.Value(clock.Timestamp(now.Add(SecretGrace)))).
		Set(expression.Name("secretRotatedAt"), expression.Value(stamp))
	// The secret read is still the current one: a rotation in between
	// would otherwise lose the grace of the secret it replaced.
	cond := expression.Name("secretHash").Equal(expression.Value(it.SecretHash))
	tx := a.table.Tx().Update(appKey(appID), upd, &cond).Else(errConcurrentRotation)
	auth.AddAuditEntry(tx, storage.CompanyPK(it.CompanyID), now, by, auth.AuditSecretRotated, it.ID, it.Name,
		"the previous secret works until "+now.Add(SecretGrace).Format("2006-01-02 15:04 UTC"))
	if err := tx.Commit(ctx); err != nil {
		return App{}, "", err
	}
	it.SecretRotatedAt = stamp
	return it.App, secret, nil
}

// AppChange is what Update changes of an app (nil: unchanged).
type AppChange struct {
	RequirePKCE *bool
	// Events are the event types the app receives, replacing its choice:
	// each one it can receive (Receives), or the change is refused.
	Events *[]string
}

// Update changes the app as the change says, on behalf of by (its company's
// audit list records it), and returns it as changed: every change or none.
func (a *Apps) Update(ctx context.Context, appID string, change AppChange, by auth.Actor) (App, error) {
	it, err := a.item(ctx, appID)
	if err != nil {
		return App{}, err
	}
	var (
		upd     expression.UpdateBuilder
		details []string
	)
	if change.RequirePKCE != nil {
		it.RequirePKCE = *change.RequirePKCE
		upd = upd.Set(expression.Name("requirePkce"), expression.Value(it.RequirePKCE))
		detail := "PKCE is optional"
		if it.RequirePKCE {
			detail = "PKCE is required: a consent without a code_challenge is refused"
		}
		details = append(details, detail)
	}
	if change.Events != nil {
		// Scopes, target and webhook URL never change: the app read is
		// the one the choice is checked against.
		it.Events = dedupe(*change.Events)
		if problems := eventProblems(it.App); len(problems) > 0 {
			return App{}, apierror.Invalid(problems...)
		}
		upd = upd.Set(expression.Name("events"), expression.Value(it.Events))
		details = append(details, receivesDetail(it.Events))
	}
	if len(details) == 0 {
		return it.App, nil
	}
	now := a.clock.Now().UTC()
	tx := a.table.Tx().Update(appKey(appID), upd, storage.ItemExists()).Else(ErrNoApp)
	auth.AddAuditEntry(tx, storage.CompanyPK(it.CompanyID), now, by, auth.AuditEdited, it.ID, it.Name, strings.Join(details, "; "))
	if err := tx.Commit(ctx); err != nil {
		return App{}, err
	}
	return it.App, nil
}

// receivesDetail is an audit entry's account of an app's event choice.
func receivesDetail(types []string) string {
	if len(types) == 0 {
		return "it receives no event but INSTALL and UNINSTALL"
	}
	return "it receives " + strings.Join(types, ", ")
}

var errConcurrentRotation = errors.New("the app's secret was rotated at the same moment: try again")

func hashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func equalHash(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func dedupe(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// ClientSecrets returns the app whose client id is clientID and the hashes
// of the client secrets that work now: the current one, and the previous
// one during its grace (for an OAuth library that compares secrets itself,
// with SecretMatches).
func (a *Apps) ClientSecrets(ctx context.Context, clientID string) (App, string, []string, error) {
	it, err := a.item(ctx, AppIDOf(clientID))
	if err != nil {
		return App{}, "", nil, err
	}
	if it.ClientID != clientID {
		return App{}, "", nil, ErrNoApp
	}
	var previous []string
	if it.PreviousSecretHash != "" && a.clock.Now().Before(clock.Parse(it.PreviousSecretEnds)) {
		previous = []string{it.PreviousSecretHash}
	}
	return it.App, it.SecretHash, previous, nil
}

// SecretMatches reports whether secret is the one hash was made of, in
// constant time.
func SecretMatches(hash, secret string) bool { return equalHash(hashSecret(secret), hash) }
