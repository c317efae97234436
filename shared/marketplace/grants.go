package marketplace

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// Errors of the token endpoint's transactions.
var (
	ErrCodeUnknown    = errors.New("the authorization code is unknown")
	ErrCodeUsed       = errors.New("the authorization code was used already, or has ended")
	ErrRefreshUnknown = errors.New("the refresh token is unknown")
	ErrRefreshUsed    = errors.New("the refresh token was used already, revoked or has ended")
	// ErrApprovedBeforeUninstall: an uninstall ends what was approved
	// before it, codes not yet exchanged included.
	ErrApprovedBeforeUninstall = errors.New("the app was uninstalled after this code was approved: it installs nothing; the admin must approve the app again")
)

// uninstalledSince reports whether the install was uninstalled after the
// code was approved (an uninstall that came later ends the approval).
func uninstalledSince(inst *Install, code *Code) bool {
	return inst != nil && inst.UninstalledAt != "" && clock.Parse(inst.UninstalledAt).After(clock.Parse(code.RequestedAt))
}

// Grant is one transaction of the token endpoint: the OAuth library makes
// its writes one by one (use the code or the refresh token, issue the
// access token, issue the refresh token), Grant gathers them, and Commit
// writes them, with the install and its webhook events, all together or
// not at all.
type Grant struct {
	a           *Apps
	codeHash    string
	usedRefresh string
	accessHash  string
	accessEnds  time.Time
	refreshHash string
}

// NewGrant starts a token endpoint transaction.
func (a *Apps) NewGrant() *Grant { return &Grant{a: a} }

// UseCode marks the code with that hash used (an authorization code
// exchange).
func (g *Grant) UseCode(hash string) { g.codeHash = hash }

// UseRefresh marks the refresh token with that hash used (a refresh).
func (g *Grant) UseRefresh(hash string) { g.usedRefresh = hash }

// IssueAccess issues the access token with that hash, ending at ends.
func (g *Grant) IssueAccess(hash string, ends time.Time) { g.accessHash, g.accessEnds = hash, ends }

// IssueRefresh issues the refresh token with that hash.
func (g *Grant) IssueRefresh(hash string) { g.refreshHash = hash }

// Commit writes the grant: an exchange (code used, install written or
// renewed, first tokens, INSTALL events, audit entries) or a refresh (old
// refresh token used, its access token revoked, new pair), and returns the
// install as written. A grant with nothing to write (a reuse's, whose
// revocation is RevokeAll's) writes nothing.
func (g *Grant) Commit(ctx context.Context) (*Install, error) {
	now := g.a.clock.Now()
	switch {
	case g.codeHash != "":
		return g.exchange(ctx, now)
	case g.usedRefresh != "":
		return g.rotate(ctx, now)
	}
	return nil, nil
}

// issued is a new pair's tokens, added to tx and to the install's list.
func (g *Grant) issue(tx *storage.Tx, app App, inst *Install, scopes []string, userType string, now time.Time) error {
	accessID, err := auth.NewTokenID()
	if err != nil {
		return err
	}
	refreshID, err := auth.NewTokenID()
	if err != nil {
		return err
	}
	stamp := clock.Timestamp(now)
	ends := clock.Timestamp(g.accessEnds)
	auth.AddIssuedToken(tx, auth.Info{
		TokenID: accessID, AccountID: inst.AccountID, CompanyID: inst.CompanyID, Kind: auth.KindMarketplace, Scopes: scopes,
		Name: app.Name, Description: "marketplace app " + app.ID, CreatedAt: stamp, ExpiresAt: ends, Install: inst.Ref(),
	}, g.accessHash)
	inst.Tokens = append(inst.Tokens, LiveToken{TokenID: accessID, Hash: g.accessHash, AccountID: inst.AccountID, Kind: TokenAccess, EndsAt: ends, Pair: refreshID})
	if g.refreshHash == "" {
		return nil
	}
	refreshEnds := now.Add(RefreshLifetime)
	tx.Put(refreshItem{
		Key: refreshKey(g.refreshHash),
		Refresh: Refresh{
			Ref: inst.Ref(), AppID: app.ID, ClientID: app.ClientID, Scopes: scopes, UserType: userType, TokenID: refreshID,
			IssuedAt: stamp, EndsAt: clock.Timestamp(refreshEnds),
		},
		TTL: refreshEnds.Unix() + 1,
	}, storage.ItemAbsent()).Else(auth.ErrTokenExists)
	inst.Tokens = append(inst.Tokens, LiveToken{TokenID: refreshID, Hash: g.refreshHash, AccountID: inst.AccountID, Kind: TokenRefresh, EndsAt: clock.Timestamp(refreshEnds)})
	return nil
}

func keepAll(LiveToken) bool { return true }

func (g *Grant) exchange(ctx context.Context, now time.Time) (*Install, error) {
	a := g.a
	code, err := a.CodeByHash(ctx, g.codeHash)
	if err != nil {
		return nil, err
	}
	if code == nil {
		return nil, ErrCodeUnknown
	}
	app, err := a.Get(ctx, code.AppID)
	if errors.Is(err, ErrNoApp) {
		return nil, ErrCodeUnknown
	}
	if err != nil {
		return nil, err
	}
	stamp := clock.Timestamp(now)
	tx := a.table.Tx()
	// Single use, within its life, however many exchanges race.
	usable := expression.AttributeExists(expression.Name(storage.AttrPK)).
		And(expression.AttributeNotExists(expression.Name("usedAt"))).
		And(expression.Name("endsAt").GreaterThan(expression.Value(stamp)))
	tx.Update(codeKey(g.codeHash), expression.Set(expression.Name("usedAt"), expression.Value(stamp)), &usable).Else(ErrCodeUsed)

	holder := Install{AppID: app.ID, CompanyID: code.CompanyID, AccountID: code.AccountID}
	before, err := a.readInstall(ctx, holder.key())
	if err != nil {
		return nil, err
	}
	after := Install{
		AppID: app.ID, AppName: app.Name, CompanyID: code.CompanyID, AccountID: code.AccountID, Scopes: code.Scopes,
		UserID: code.UserID, InstalledBy: code.By, InstalledAt: stamp, Status: StatusInstalled, Tokens: []LiveToken{},
	}
	// The install's version condition below makes this hold at the write:
	// an uninstall in between changes the version.
	if uninstalledSince(before, code) {
		return nil, ErrApprovedBeforeUninstall
	}
	version := 0
	if before != nil {
		version = before.Version
		if before.Installed() {
			// Approved again: the install keeps its date and live tokens.
			after.InstalledAt = before.InstalledAt
			after.Tokens = live(*before, now, nil, keepAll)
			after.Approved = before.Approved
		}
	}
	if err := g.issue(tx, app, &after, code.Scopes, code.UserType, now); err != nil {
		return nil, err
	}
	company, err := a.companyOf(ctx, code.CompanyID)
	if err != nil {
		return nil, err
	}
	if code.UserType == UserCompany {
		// A code issued before IssueCode refused a mix of companies.
		if err := a.checkOneCompany(ctx, code.CompanyID, code.Approved); err != nil {
			return nil, err
		}
		if err := g.coverAccounts(ctx, tx, app, code, company, &after, now); err != nil {
			return nil, err
		}
	} else if !before.Installed() {
		addEvent(tx, app, Installed, company, code.AccountID, code.UserID, now)
		auth.AddAuditEntry(tx, storage.AccountPK(code.AccountID), now, code.By, auth.AuditAppInstalled, app.ID, app.Name, "scopes: "+strings.Join(code.Scopes, " "))
	}
	putInstall(tx, after, version, before != nil)
	if err := tx.Commit(ctx); err != nil {
		return nil, err
	}
	after.Version = version + 1
	return &after, nil
}

// coverAccounts adds to tx the account items of a company install for the
// accounts the code approves that it does not cover yet, each with its
// INSTALL event and audit entry. An account where the app is installed
// directly keeps that install.
func (g *Grant) coverAccounts(ctx context.Context, tx *storage.Tx, app App, code *Code, named companyRef, company *Install, now time.Time) error {
	for _, acct := range code.Approved {
		if slices.Contains(company.Approved, acct) {
			continue
		}
		before, err := g.a.readInstall(ctx, accountInstallKey(acct, app.ID))
		if err != nil {
			return err
		}
		if uninstalledSince(before, code) {
			return ErrApprovedBeforeUninstall
		}
		if before.Installed() && !before.ViaCompany {
			continue
		}
		version := 0
		if before != nil {
			version = before.Version
		}
		putInstall(tx, Install{
			AppID: app.ID, AppName: app.Name, CompanyID: code.CompanyID, AccountID: acct, ViaCompany: true, Scopes: code.Scopes,
			UserID: code.UserID, InstalledBy: code.By, InstalledAt: clock.Timestamp(now), Status: StatusInstalled, Tokens: []LiveToken{},
		}, version, before != nil)
		company.Approved = append(company.Approved, acct)
		addEvent(tx, app, Installed, named, acct, code.UserID, now)
		auth.AddAuditEntry(tx, storage.AccountPK(acct), now, code.By, auth.AuditAppInstalled, app.ID, app.Name, "through the company's install; scopes: "+strings.Join(code.Scopes, " "))
	}
	return nil
}

func (g *Grant) rotate(ctx context.Context, now time.Time) (*Install, error) {
	a := g.a
	old, err := a.RefreshByHash(ctx, g.usedRefresh)
	if err != nil {
		return nil, err
	}
	if old == nil {
		return nil, ErrRefreshUnknown
	}
	inst, err := a.InstallByRef(ctx, old.Ref)
	if err != nil {
		return nil, err
	}
	if !inst.Installed() {
		return nil, ErrNotInstalled
	}
	app, err := a.Get(ctx, old.AppID)
	if err != nil {
		return nil, err
	}
	stamp := clock.Timestamp(now)
	tx := a.table.Tx()
	usable := expression.AttributeExists(expression.Name(storage.AttrPK)).
		And(expression.AttributeNotExists(expression.Name("usedAt"))).
		And(expression.AttributeNotExists(expression.Name("revokedAt")))
	tx.Update(refreshKey(g.usedRefresh), expression.Set(expression.Name("usedAt"), expression.Value(stamp)), &usable).Else(ErrRefreshUsed)
	// The used refresh token leaves the list (marked used above); the access
	// token issued with it is revoked.
	var r revocation
	after := *inst
	after.Tokens = slices.DeleteFunc(slices.Clone(inst.Tokens), func(t LiveToken) bool { return t.TokenID == old.TokenID })
	after.Tokens = live(after, now, &r, func(t LiveToken) bool { return t.Pair != old.TokenID })
	if err := g.issue(tx, app, &after, old.Scopes, old.UserType, now); err != nil {
		return nil, err
	}
	putInstall(tx, after, inst.Version, true)
	r.apply(a, tx, now)
	if err := tx.Commit(ctx); err != nil {
		return nil, err
	}
	after.Version = inst.Version + 1
	return &after, nil
}

// LocationToken issues an access token for one account of a company
// install (the token of companyToken's install), ending at ends. The
// account's previous such token is revoked in the same transaction. An
// account the install does not cover is ErrNotInstalled.
func (a *Apps) LocationToken(ctx context.Context, ref, accountID string, ends time.Time) (string, *Install, error) {
	inst, err := a.InstallByRef(ctx, ref)
	if err != nil {
		return "", nil, err
	}
	if !inst.Installed() || inst.AccountID != "" || !slices.Contains(inst.Approved, accountID) {
		return "", nil, ErrNotInstalled
	}
	// An install written before consent refused a mix of companies may
	// list another company's account: it gets no token of it.
	if err := a.checkOneCompany(ctx, inst.CompanyID, []string{accountID}); errors.Is(err, ErrAccountsOfTwoCompanies) {
		return "", nil, ErrNotInstalled
	} else if err != nil {
		return "", nil, err
	}
	app, err := a.Get(ctx, inst.AppID)
	if err != nil {
		return "", nil, err
	}
	value, err := auth.GenerateToken()
	if err != nil {
		return "", nil, err
	}
	id, err := auth.NewTokenID()
	if err != nil {
		return "", nil, err
	}
	now := a.clock.Now()
	tx := a.table.Tx()
	var r revocation
	after := *inst
	after.Tokens = live(*inst, now, &r, func(t LiveToken) bool { return t.Kind != TokenLocation || t.AccountID != accountID })
	hash := auth.HashToken(value)
	endStamp := clock.Timestamp(ends)
	auth.AddIssuedToken(tx, auth.Info{
		TokenID: id, AccountID: accountID, CompanyID: inst.CompanyID, Kind: auth.KindMarketplace, Scopes: inst.Scopes,
		Name: app.Name, Description: "marketplace app " + app.ID, CreatedAt: clock.Timestamp(now), ExpiresAt: endStamp, Install: ref,
	}, hash)
	after.Tokens = append(after.Tokens, LiveToken{TokenID: id, Hash: hash, AccountID: accountID, Kind: TokenLocation, EndsAt: endStamp})
	putInstall(tx, after, inst.Version, true)
	r.apply(a, tx, now)
	if err := tx.Commit(ctx); err != nil {
		return "", nil, err
	}
	return value, &after, nil
}
