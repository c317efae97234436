package marketplace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Install states.
const (
	StatusInstalled   = "installed"
	StatusUninstalled = "uninstalled"
)

// Kinds of an install's live tokens.
const (
	TokenAccess   = "access"   // from the token endpoint
	TokenRefresh  = "refresh"  // from the token endpoint, single use
	TokenLocation = "location" // an account's token from /oauth/locationToken
)

// LiveToken is one token an install holds, for its revocation.
type LiveToken struct {
	TokenID string `dynamodbav:"tokenId"`
	Hash    string `dynamodbav:"hash"`
	// AccountID is the token's account ("" for a company token).
	AccountID string `dynamodbav:"accountId,omitempty"`
	Kind      string `dynamodbav:"kind"`
	EndsAt    string `dynamodbav:"endsAt"`
	// Pair is the id of the refresh token issued with an access token: the
	// access token is revoked when that refresh token is used.
	Pair string `dynamodbav:"pair,omitempty"`
}

// Install is an app installed into an account, or into a company for the
// accounts it approved (the company's item, and one item per account).
type Install struct {
	AppID     string `dynamodbav:"appId"`
	AppName   string `dynamodbav:"appName"`
	CompanyID string `dynamodbav:"companyId"`
	// AccountID is the account ("" on a company install's own item).
	AccountID string `dynamodbav:"accountId,omitempty"`
	// ViaCompany marks an account's item of a company install: the
	// company's item holds the tokens.
	ViaCompany  bool       `dynamodbav:"viaCompany,omitempty"`
	Scopes      []string   `dynamodbav:"scopes"`
	UserID      string     `dynamodbav:"userId,omitempty"`
	InstalledBy auth.Actor `dynamodbav:"installedBy"`
	InstalledAt string     `dynamodbav:"installedAt"`
	Status      string     `dynamodbav:"status"`
	// UninstalledAt and UninstalledBy tell the last uninstall.
	UninstalledAt string     `dynamodbav:"uninstalledAt,omitempty"`
	UninstalledBy auth.Actor `dynamodbav:"uninstalledBy,omitempty"`
	// Approved are a company install's accounts.
	Approved []string    `dynamodbav:"approved,omitempty"`
	Tokens   []LiveToken `dynamodbav:"tokens"`
	// Version grows with every change: each change is conditional on the
	// version it read, so that none is lost to another.
	Version int `dynamodbav:"version"`
	// LastUsedAt is the latest use of its tokens (filled in by the lists).
	LastUsedAt string `dynamodbav:"-"`
}

// Installed reports whether the install is in place.
func (i *Install) Installed() bool { return i != nil && i.Status == StatusInstalled }

// Ref names the install as the grant of its tokens (fosite's request id):
// "L.<account>.<app>" or "C.<company>.<app>" ('.' is in no id).
func (i Install) Ref() string {
	if i.AccountID == "" {
		return "C." + i.CompanyID + "." + i.AppID
	}
	return "L." + i.AccountID + "." + i.AppID
}

// key is where the install's item lives.
func (i Install) key() storage.Key { return refKey(i.Ref()) }

type installItem struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	Install
}

func accountInstallKey(accountID, appID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "INSTALL#" + appID}
}

func companyInstallKey(companyID, appID string) storage.Key {
	return storage.Key{PK: storage.CompanyPK(companyID), SK: "INSTALL#" + appID}
}

// installsOf is the GSI1 partition of an app's installs.
func installsOf(appID string) string { return "INSTALLS#" + appID }

// refKey is the item of the install a grant ref names.
func refKey(ref string) storage.Key {
	kind, rest, _ := strings.Cut(ref, ".")
	owner, app, _ := strings.Cut(rest, ".")
	if kind == "C" {
		return companyInstallKey(owner, app)
	}
	return accountInstallKey(owner, app)
}

// parseRef checks a grant ref's shape.
func parseRef(ref string) (kind, owner, app string, ok bool) {
	kind, rest, _ := strings.Cut(ref, ".")
	owner, app, _ = strings.Cut(rest, ".")
	ok = (kind == "L" || kind == "C") && validate.IDProblem("id", owner) == "" && validate.IDProblem("app", app) == ""
	return kind, owner, app, ok
}

// Errors of installs.
var (
	ErrNotInstalled = errors.New("the app is not installed there")
	// ErrInstallChanged: the install changed between its read and the
	// change (a concurrent refresh, install or uninstall); nothing was
	// written.
	ErrInstallChanged = errors.New("the install changed at the same moment: try again")
)

// putInstall adds to tx the write of the install as after, on condition
// that it is still as read (version; absent when read absent).
func putInstall(tx *storage.Tx, after Install, readVersion int, existed bool) {
	cond := storage.ItemAbsent()
	if existed {
		c := expression.Name("version").Equal(expression.Value(readVersion))
		cond = &c
	}
	after.Version = readVersion + 1
	tx.Put(installItem{Key: after.key(), GSI1PK: installsOf(after.AppID), GSI1SK: after.key().PK, Install: after}, cond).Else(ErrInstallChanged)
}

// readInstall reads an install's item (nil when there is none).
func (a *Apps) readInstall(ctx context.Context, key storage.Key) (*Install, error) {
	it, err := storage.Get[installItem](ctx, a.table, key)
	if err != nil || it == nil {
		return nil, err
	}
	return &it.Install, nil
}

// InstallByRef reads the install a grant ref names (nil when none).
func (a *Apps) InstallByRef(ctx context.Context, ref string) (*Install, error) {
	if _, _, _, ok := parseRef(ref); !ok {
		return nil, nil
	}
	return a.readInstall(ctx, refKey(ref))
}

// CompanyInstall reads the company's install of the app (nil when none).
func (a *Apps) CompanyInstall(ctx context.Context, companyID, appID string) (*Install, error) {
	return a.readInstall(ctx, companyInstallKey(companyID, appID))
}

// AccountInstalls lists the apps installed in the account (uninstalled ones
// included), each with the last use of its tokens.
func (a *Apps) AccountInstalls(ctx context.Context, accountID string) ([]Install, error) {
	items, err := storage.QueryPartition[installItem](ctx, a.table, storage.AccountPK(accountID), "INSTALL#")
	if err != nil {
		return nil, err
	}
	uses, err := a.tokens.LastUses(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]Install, len(items))
	for i, it := range items {
		out[i] = it.Install
		holder := &it.Install
		if it.ViaCompany {
			if holder, err = a.CompanyInstall(ctx, it.CompanyID, it.AppID); err != nil {
				return nil, err
			}
		}
		if holder == nil {
			continue
		}
		var last time.Time
		for _, t := range holder.Tokens {
			if u, ok := uses[t.TokenID]; ok && t.AccountID == accountID && u.After(last) {
				last = u
			}
		}
		if !last.IsZero() {
			out[i].LastUsedAt = clock.Timestamp(last)
		}
	}
	return out, nil
}

// revocation gathers the tokens a change ends.
type revocation struct {
	issued   []auth.IssuedRef
	refresh  []string // hashes of refresh tokens
	accounts []string // accounts whose admission states record it
}

func (r *revocation) add(inst Install, t LiveToken) {
	if t.Kind == TokenRefresh {
		r.refresh = append(r.refresh, t.Hash)
		return
	}
	r.issued = append(r.issued, auth.IssuedRef{TokenID: t.TokenID, Hash: t.Hash, AccountID: t.AccountID, CompanyID: inst.CompanyID})
}

// apply adds the revocations to tx.
func (r *revocation) apply(a *Apps, tx *storage.Tx, now time.Time) {
	a.tokens.AddIssuedRevocations(tx, now, r.issued)
	at := clock.Timestamp(now)
	for _, h := range r.refresh {
		tx.Update(refreshKey(h), expression.Set(expression.Name("revokedAt"), expression.Value(at)), storage.ItemExists())
	}
}

// live keeps the tokens of list that have not ended at now and that keep
// says to keep; the others ended or go to r.
func live(inst Install, now time.Time, r *revocation, keep func(LiveToken) bool) []LiveToken {
	out := []LiveToken{}
	for _, t := range inst.Tokens {
		switch {
		case !now.Before(clock.Parse(t.EndsAt)):
			// Ended: refused on read already, nothing to revoke.
		case keep(t):
			out = append(out, t)
		case r != nil:
			r.add(inst, t)
		}
	}
	return out
}

func none(LiveToken) bool { return false }

// Uninstall removes the app from the account on behalf of by: the install
// is marked uninstalled, every token it holds for the account is revoked
// (each refused on its next request), the UNINSTALL event and the audit
// entry are written, all in one transaction. An account covered by a
// company install leaves the company's approved accounts.
func (a *Apps) Uninstall(ctx context.Context, accountID, appID string, by auth.Actor) error {
	return retryChanged(func() error { return a.uninstall(ctx, accountID, appID, by) })
}

// changeAttempts bounds the attempts of a change whose install changed
// under it (a refresh or a location token at the same moment).
const changeAttempts = 5

// retryChanged runs change again, reading the install afresh, while the
// install changed between its read and its write.
func retryChanged(change func() error) error {
	var err error
	for range changeAttempts {
		if err = change(); !errors.Is(err, ErrInstallChanged) {
			return err
		}
	}
	return err
}

func (a *Apps) uninstall(ctx context.Context, accountID, appID string, by auth.Actor) error {
	inst, err := a.readInstall(ctx, accountInstallKey(accountID, appID))
	if err != nil {
		return err
	}
	if !inst.Installed() {
		return ErrNotInstalled
	}
	app, err := a.Get(ctx, appID)
	if err != nil && !errors.Is(err, ErrNoApp) {
		return err
	}
	now := a.clock.Now()
	tx := a.table.Tx()
	var r revocation
	after := *inst
	after.Status, after.UninstalledAt, after.UninstalledBy = StatusUninstalled, clock.Timestamp(now), by
	if inst.ViaCompany {
		company, err := a.CompanyInstall(ctx, inst.CompanyID, appID)
		if err != nil {
			return err
		}
		if company.Installed() {
			c := *company
			c.Tokens = live(*company, now, &r, func(t LiveToken) bool { return t.AccountID != accountID })
			c.Approved = slices.DeleteFunc(slices.Clone(company.Approved), func(id string) bool { return id == accountID })
			putInstall(tx, c, company.Version, true)
		}
	} else {
		after.Tokens = live(*inst, now, &r, none)
	}
	putInstall(tx, after, inst.Version, true)
	r.apply(a, tx, now)
	if app.ID != "" {
		company, err := a.companyOf(ctx, inst.CompanyID)
		if err != nil {
			return err
		}
		addEvent(tx, app, Uninstalled, company, accountID, "", now)
	}
	auth.AddAuditEntry(tx, storage.AccountPK(accountID), now, by, auth.AuditAppUninstalled, appID, inst.AppName, "every token of the install was revoked")
	return tx.Commit(ctx)
}

// Delete removes an app: every install of it is uninstalled first (each
// with its tokens revoked and its UNINSTALL event), then the app's item.
func (a *Apps) Delete(ctx context.Context, appID string, by auth.Actor) error {
	app, err := a.Get(ctx, appID)
	if err != nil {
		return err
	}
	items, err := storage.QueryAll[installItem](ctx, a.table, storage.Query{
		Index: storage.IndexGSI1, Key: expression.Key(storage.AttrGSI1PK).Equal(expression.Value(installsOf(appID))),
	})
	if err != nil {
		return err
	}
	for _, it := range items {
		switch {
		case !it.Installed() || it.AccountID == "":
		case it.ViaCompany:
			// Through the company's install, below.
		default:
			if err := a.Uninstall(ctx, it.AccountID, appID, by); err != nil && !errors.Is(err, ErrNotInstalled) {
				return err
			}
		}
	}
	for _, it := range items {
		if it.AccountID == "" && it.Installed() {
			for _, acct := range it.Approved {
				if err := a.Uninstall(ctx, acct, appID, by); err != nil && !errors.Is(err, ErrNotInstalled) {
					return err
				}
			}
			if err := a.revokeCompany(ctx, app, by); err != nil {
				return err
			}
		}
	}
	return a.table.Delete(ctx, appKey(appID), nil)
}

// revokeCompany ends a company install: its item uninstalled and its
// tokens revoked.
func (a *Apps) revokeCompany(ctx context.Context, app App, by auth.Actor) error {
	return retryChanged(func() error { return a.endCompany(ctx, app, by) })
}

func (a *Apps) endCompany(ctx context.Context, app App, by auth.Actor) error {
	inst, err := a.CompanyInstall(ctx, app.CompanyID, app.ID)
	if err != nil || !inst.Installed() {
		return err
	}
	now := a.clock.Now()
	tx := a.table.Tx()
	var r revocation
	after := *inst
	after.Status, after.UninstalledAt, after.UninstalledBy = StatusUninstalled, clock.Timestamp(now), by
	after.Tokens = live(*inst, now, &r, none)
	putInstall(tx, after, inst.Version, true)
	r.apply(a, tx, now)
	auth.AddAuditEntry(tx, storage.CompanyPK(app.CompanyID), now, by, auth.AuditAppUninstalled, app.ID, app.Name, "every token of the company install was revoked")
	return tx.Commit(ctx)
}

// RevokeAll revokes every token of the install a grant ref names (refresh
// token reuse, or a code used twice): the install stays, with no token.
func (a *Apps) RevokeAll(ctx context.Context, ref, why string) error {
	return retryChanged(func() error { return a.revokeAll(ctx, ref, why) })
}

func (a *Apps) revokeAll(ctx context.Context, ref, why string) error {
	inst, err := a.InstallByRef(ctx, ref)
	if err != nil || inst == nil {
		return err
	}
	now := a.clock.Now()
	tx := a.table.Tx()
	var r revocation
	after := *inst
	after.Tokens = live(*inst, now, &r, none)
	if len(r.issued)+len(r.refresh) == 0 {
		return nil
	}
	putInstall(tx, after, inst.Version, true)
	r.apply(a, tx, now)
	owner := storage.CompanyPK(inst.CompanyID)
	if inst.AccountID != "" {
		owner = storage.AccountPK(inst.AccountID)
	}
	auth.AddAuditEntry(tx, owner, now, auth.Actor{ID: "oauth", Name: "OAuth server"}, auth.AuditRefreshReused, inst.AppID, inst.AppName,
		fmt.Sprintf("%s: every token of the install was revoked", why))
	return tx.Commit(ctx)
}
