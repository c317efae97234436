package marketplace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// Lifetimes of the OAuth server's grants.
const (
	CodeLifetime    = 10 * time.Minute
	RefreshLifetime = 365 * 24 * time.Hour
	// AccessLifetime is the public platform's expires_in (86399 s); the
	// token endpoint takes OAUTH_ACCESS_TOKEN_TTL in its place when set.
	AccessLifetime = 86399 * time.Second
)

// Why an authorization request gets an error page (never a redirect: its
// redirect URI cannot be trusted).
var (
	ErrUnknownClient       = errors.New("no marketplace app has this client_id")
	ErrRedirectNotAllowed  = errors.New("the redirect_uri is not one the app registered")
	ErrRedirectFragment    = errors.New("the redirect_uri holds a fragment (#...), which a redirect URI may not (RFC 6749 3.1.2)")
	ErrScopeNotAllowed     = errors.New("the scope asks for more than the app's scopes")
	ErrUnsupportedResponse = errors.New("response_type must be code")
	ErrNoAccountChosen     = errors.New("choose an account to install the app into")
	// ErrAccountsOfTwoCompanies: an install belongs to one company, so
	// every account it covers is of that company.
	ErrAccountsOfTwoCompanies = errors.New("an install belongs to one company: every account it covers must be of that company")
)

// Authorization checks an authorization request (the consent page's query)
// and returns the app and the scopes it asks for (the app's own when the
// request names none). The redirect URI must be one the app registered,
// character for character.
func (a *Apps) Authorization(ctx context.Context, responseType, clientID, redirectURI, scope string) (App, []string, error) {
	app, err := a.ByClientID(ctx, clientID)
	if errors.Is(err, ErrNoApp) {
		return App{}, nil, ErrUnknownClient
	}
	if err != nil {
		return App{}, nil, err
	}
	if !slices.Contains(app.RedirectURIs, redirectURI) {
		return App{}, nil, ErrRedirectNotAllowed
	}
	if strings.Contains(redirectURI, "#") {
		// Registered before registration refused fragments.
		return App{}, nil, ErrRedirectFragment
	}
	requested := strings.Fields(scope)
	if len(requested) == 0 {
		requested = app.Scopes
	}
	for _, s := range requested {
		if !slices.Contains(app.Scopes, s) {
			return App{}, nil, fmt.Errorf("%w (%q)", ErrScopeNotAllowed, s)
		}
	}
	if responseType != "code" {
		return App{}, nil, ErrUnsupportedResponse
	}
	return app, dedupe(requested), nil
}

// PKCE (RFC 7636): S256 only, as RFC 9700 (2.1.1) recommends; plain would
// put the verifier itself in the browser's address bar.
const PKCEMethodS256 = "S256"

// Why a PKCE challenge is refused (invalid_request, sent back to the
// app: its redirect URI was checked first).
var (
	ErrPKCERequired  = errors.New("the app requires PKCE: send code_challenge with code_challenge_method=S256")
	ErrPKCEMethod    = errors.New("code_challenge_method must be S256 (plain, the default when it is missing, is not supported)")
	ErrPKCEChallenge = errors.New("code_challenge must be the base64url SHA-256 of the code_verifier: 43 characters of A-Z, a-z, 0-9, - and _")
)

// CheckChallenge checks an authorization request's PKCE parameters for
// the app: none (unless the app requires PKCE), or an S256 challenge.
func CheckChallenge(app App, challenge, method string) error {
	switch {
	case challenge == "" && method == "":
		if app.RequirePKCE {
			return ErrPKCERequired
		}
		return nil
	case method != PKCEMethodS256:
		return ErrPKCEMethod
	case len(challenge) != 43 || strings.Trim(challenge, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "":
		return ErrPKCEChallenge
	}
	return nil
}

// Code is what an authorization code grants, as approved on the consent
// page: stored under the code's SHA-256 until it is used or ends.
type Code struct {
	AppID       string   `dynamodbav:"appId"`
	ClientID    string   `dynamodbav:"clientId"`
	RedirectURI string   `dynamodbav:"redirectUri"`
	Scopes      []string `dynamodbav:"scopes"`
	// UserType is Location (AccountID) or Company (Approved accounts).
	UserType    string     `dynamodbav:"userType"`
	AccountID   string     `dynamodbav:"accountId,omitempty"`
	CompanyID   string     `dynamodbav:"companyId"`
	Approved    []string   `dynamodbav:"approved,omitempty"`
	UserID      string     `dynamodbav:"userId"`
	By          auth.Actor `dynamodbav:"by"`
	RequestedAt string     `dynamodbav:"requestedAt"`
	EndsAt      string     `dynamodbav:"endsAt"`
	UsedAt      string     `dynamodbav:"usedAt,omitempty"`
	// CodeChallenge binds the code to its PKCE verifier (S256), when the
	// authorization request sent one.
	CodeChallenge       string `dynamodbav:"codeChallenge,omitempty"`
	CodeChallengeMethod string `dynamodbav:"codeChallengeMethod,omitempty"`
}

// Ref is the grant ref of the install the code makes.
func (c Code) Ref() string {
	return Install{AppID: c.AppID, CompanyID: c.CompanyID, AccountID: c.AccountID}.Ref()
}

type codeItem struct {
	storage.Key
	Code
	TTL int64 `dynamodbav:"expiresAt"`
}

func codeKey(hash string) storage.Key { return storage.Key{PK: "OAUTHCODE#" + hash, SK: "CODE"} }

// Consent is an admin's approval of an app on the consent page.
type Consent struct {
	App         App
	RedirectURI string
	Scopes      []string
	// CompanyID is the company installing the app: the account's, or the
	// agency admin's for a company install.
	CompanyID string
	// AccountID is the account of a location install; Approved the
	// accounts of a company install.
	AccountID string
	Approved  []string
	UserID    string
	By        auth.Actor
	// CodeChallenge and CodeChallengeMethod are the request's PKCE
	// parameters (CheckChallenge).
	CodeChallenge, CodeChallengeMethod string
}

// IssueCode stores the consent as a new authorization code (single use,
// CodeLifetime) and returns the code.
func (a *Apps) IssueCode(ctx context.Context, c Consent) (string, error) {
	code, err := auth.GenerateSecret(CodePrefix)
	if err != nil {
		return "", err
	}
	now := a.clock.Now().UTC()
	userType, covered := UserLocation, []string{c.AccountID}
	if c.App.Target == TargetCompany {
		userType, covered = UserCompany, c.Approved
		c.AccountID = ""
	}
	if err := CheckChallenge(c.App, c.CodeChallenge, c.CodeChallengeMethod); err != nil {
		return "", err
	}
	if len(covered) == 0 || covered[0] == "" {
		return "", ErrNoAccountChosen
	}
	if err := a.checkOneCompany(ctx, c.CompanyID, covered); err != nil {
		return "", err
	}
	item := codeItem{
		Key: codeKey(auth.HashToken(code)),
		Code: Code{
			AppID: c.App.ID, ClientID: c.App.ClientID, RedirectURI: c.RedirectURI, Scopes: c.Scopes, UserType: userType,
			AccountID: c.AccountID, CompanyID: c.CompanyID, Approved: c.Approved, UserID: c.UserID, By: c.By,
			RequestedAt: clock.Timestamp(now), EndsAt: clock.Timestamp(now.Add(CodeLifetime)),
			CodeChallenge: c.CodeChallenge, CodeChallengeMethod: c.CodeChallengeMethod,
		},
		TTL: now.Add(CodeLifetime).Unix() + 1,
	}
	if err := a.table.Put(ctx, item, storage.ItemAbsent()); err != nil {
		return "", fmt.Errorf("store code: %w", err)
	}
	return code, nil
}

// checkOneCompany refuses accounts that are not all of companyID (or do
// not exist): the install's INSTALL events, its locationToken and its
// approvedLocations would otherwise name a company the account is not of.
func (a *Apps) checkOneCompany(ctx context.Context, companyID string, accountIDs []string) error {
	for _, id := range accountIDs {
		acct, err := a.accounts.Get(ctx, id)
		if err != nil {
			return err
		}
		if acct == nil || acct.CompanyID != companyID {
			return fmt.Errorf("%w (account %s is not company %s's)", ErrAccountsOfTwoCompanies, id, companyID)
		}
	}
	return nil
}

// CodeByHash reads a code by its hash (nil when there is none). A used or
// ended code is returned as it is: the caller decides.
func (a *Apps) CodeByHash(ctx context.Context, hash string) (*Code, error) {
	it, err := storage.Get[codeItem](ctx, a.table, codeKey(hash))
	if err != nil || it == nil {
		return nil, err
	}
	return &it.Code, nil
}

// Ended reports whether the code is past its end at now.
func (c Code) Ended(now time.Time) bool { return !now.Before(clock.Parse(c.EndsAt)) }

// Refresh is a refresh token's grant, stored under its SHA-256.
type Refresh struct {
	Ref       string   `dynamodbav:"ref"`
	AppID     string   `dynamodbav:"appId"`
	ClientID  string   `dynamodbav:"clientId"`
	Scopes    []string `dynamodbav:"scopes"`
	UserType  string   `dynamodbav:"userType"`
	TokenID   string   `dynamodbav:"tokenId"`
	IssuedAt  string   `dynamodbav:"issuedAt"`
	EndsAt    string   `dynamodbav:"endsAt"`
	UsedAt    string   `dynamodbav:"usedAt,omitempty"`
	RevokedAt string   `dynamodbav:"revokedAt,omitempty"`
}

type refreshItem struct {
	storage.Key
	Refresh
	TTL int64 `dynamodbav:"expiresAt"`
}

func refreshKey(hash string) storage.Key {
	return storage.Key{PK: "OAUTHREFRESH#" + hash, SK: "REFRESH"}
}

// RefreshByHash reads a refresh token by its hash (nil when there is none).
func (a *Apps) RefreshByHash(ctx context.Context, hash string) (*Refresh, error) {
	it, err := storage.Get[refreshItem](ctx, a.table, refreshKey(hash))
	if err != nil || it == nil {
		return nil, err
	}
	return &it.Refresh, nil
}

// Ended reports whether the refresh token is past its end at now.
func (r Refresh) Ended(now time.Time) bool { return !now.Before(clock.Parse(r.EndsAt)) }
