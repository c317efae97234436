package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/scopes"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// A token is stored as three items, none holding its value:
//   - TOKEN#<sha256> / TOKEN: its facts, revocation and expiry time, read to
//     authenticate;
//   - ACCOUNT#<account> / TOKEN#<id>: its listing entry in the account (with
//     its persisted last use);
//   - TOKENID#<id> / TOKENID: where to find it by id, to revoke or rotate it.
//
// Each change is also an audit entry, ACCOUNT#<account> / AUDIT#<time>#<n>.
func tokenKey(hash string) storage.Key { return storage.Key{PK: "TOKEN#" + hash, SK: "TOKEN"} }
func listingKey(accountID, tokenID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "TOKEN#" + tokenID}
}
func refKey(tokenID string) storage.Key { return storage.Key{PK: "TOKENID#" + tokenID, SK: "TOKENID"} }

// Info describes a token, never its value. Times are RFC 3339 in UTC.
type Info struct {
	TokenID     string   `dynamodbav:"tokenId" json:"id"`
	AccountID   string   `dynamodbav:"accountId" json:"accountId"`
	CompanyID   string   `dynamodbav:"companyId" json:"companyId"`
	Kind        string   `dynamodbav:"kind" json:"kind"`
	Scopes      []string `dynamodbav:"scopes" json:"scopes"`
	Name        string   `dynamodbav:"name" json:"name"`
	Description string   `dynamodbav:"description,omitempty" json:"description,omitempty"`
	CreatedAt   string   `dynamodbav:"createdAt" json:"createdAt"`
	RevokedAt   string   `dynamodbav:"revokedAt,omitempty" json:"revokedAt,omitempty"`
	// ExpiresAt is when a token rotated with a grace period stops working.
	ExpiresAt string `dynamodbav:"endsAt,omitempty" json:"expiresAt,omitempty"`
	// ReplacedBy and Replaces link a rotated token and its successor.
	ReplacedBy string `dynamodbav:"replacedBy,omitempty" json:"replacedBy,omitempty"`
	Replaces   string `dynamodbav:"replaces,omitempty" json:"replaces,omitempty"`
	// LastUsedAt is the minute of the token's last request, if any.
	LastUsedAt string `dynamodbav:"lastUsedAt,omitempty" json:"lastUsedAt,omitempty"`
}

// The attribute ExpiresAt is stored under: not the table's TTL attribute
// (storage.AttrExpiresAt), which would delete the item.
const attrTokenEnd = "endsAt"

// Token states, as Status tells them.
const (
	StatusActive   = "active"
	StatusExpiring = "expiring" // rotated with a grace period, not over yet
	StatusExpired  = "expired"
	StatusRevoked  = "revoked"
)

// Status tells whether the token works at now.
func (i Info) Status(now time.Time) string {
	switch {
	case i.RevokedAt != "":
		return StatusRevoked
	case i.ExpiresAt == "":
		return StatusActive
	case !now.Before(parseTime(i.ExpiresAt)):
		return StatusExpired
	default:
		return StatusExpiring
	}
}

// Usable reports whether the token still authenticates at now.
func (i Info) Usable(now time.Time) bool {
	s := i.Status(now)
	return s == StatusActive || s == StatusExpiring
}

// parseTime reads a stored time; a malformed one is the zero time, which
// every comparison treats as long past.
func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

type tokenItem struct {
	storage.Key
	Info
}

type refItem struct {
	storage.Key
	TokenID   string `dynamodbav:"tokenId"`
	AccountID string `dynamodbav:"accountId"`
	Hash      string `dynamodbav:"hash"`
}

// AdmissionState is the account's admission state (ratelimit.Limiter): told
// about each revocation and expiry so that warm instances, which cache token
// facts, refuse the token on its very next use, and asked for the last uses
// it records.
type AdmissionState interface {
	RecordRevocation(ctx context.Context, accountID, tokenID string) error
	RecordExpiry(ctx context.Context, accountID, tokenID string, end time.Time) error
	LastUses(ctx context.Context, accountID string) (map[string]time.Time, error)
}

// Errors of the token store.
var (
	ErrNoAccount    = errors.New("account does not exist")
	ErrTokenUnknown = errors.New("token does not exist")
	ErrTokenExists  = errors.New("token already exists")
	// ErrTokenInactive: the token is revoked or expired, so it cannot be
	// rotated.
	ErrTokenInactive = errors.New("token is revoked or expired")
	// ErrAlreadyRotated: the token has a successor already.
	ErrAlreadyRotated = errors.New("token was rotated already: revoke it to end its grace period")
)

// RotationGrace is how long a rotated token keeps working when the admin
// chooses to keep it for a while.
const RotationGrace = 7 * 24 * time.Hour

// Limits of a token's name and description, in characters.
const (
	MaxNameLength        = 100
	MaxDescriptionLength = 500
)

// Actor is who changed a token, as the audit list names them.
type Actor struct {
	ID   string `dynamodbav:"id" json:"id"`
	Name string `dynamodbav:"name" json:"name"`
}

// Operator is the actor of the admin CLI (and of a zero Actor).
var Operator = Actor{ID: "platformctl", Name: "operator (platformctl)"}

func (a Actor) orOperator() Actor {
	if a.ID == "" {
		return Operator
	}
	return a
}

// Tokens creates, lists, rotates and revokes tokens: the one place that
// does, for the admin CLI and the portal alike.
type Tokens struct {
	table     *storage.Table
	clock     clock.Clock
	accounts  *accounts.Registry
	admission AdmissionState
	// unknown remembers tokens that matched none (see UnknownTokenTTL).
	unknown *unknownTokens
}

// NewTokens returns the token store. admission is told about every
// revocation and expiry.
func NewTokens(table *storage.Table, c clock.Clock, admission AdmissionState) *Tokens {
	return &Tokens{table: table, clock: c, accounts: accounts.NewRegistry(table, c), admission: admission, unknown: newUnknownTokens(c, maxUnknownTokens)}
}

// NewToken is what a token is created with.
type NewToken struct {
	AccountID   string
	Kind        string
	Scopes      []string
	Name        string
	Description string
	// By is who creates it (zero: the operator).
	By Actor
	// replaces is the token a rotation replaces.
	replaces string
}

func (n NewToken) validate() error {
	var v validate.Errors
	v.ID("account", n.AccountID)
	v.OneOf("kind", n.Kind, KindPrivate, KindMarketplace)
	if v.Check(len(n.Scopes) > 0, "scopes must name at least one scope") {
		for _, s := range n.Scopes {
			v.Check(scopes.Known(s), fmt.Sprintf("scope %q is not a known scope", clip(s)))
		}
	}
	v.MaxLen("name", n.Name, MaxNameLength)
	v.MaxLen("description", n.Description, MaxDescriptionLength)
	return v.Err()
}

// clip shortens a caller's value quoted back in a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 64 {
		return string(r[:64]) + "..."
	}
	return s
}

// Create issues a new token and returns its value, the only time the value
// exists outside the client.
func (s *Tokens) Create(ctx context.Context, n NewToken) (string, Info, error) {
	value, err := GenerateToken()
	if err != nil {
		return "", Info{}, fmt.Errorf("generate token: %w", err)
	}
	tokenID, err := randomBase62(16)
	if err != nil {
		return "", Info{}, fmt.Errorf("generate token id: %w", err)
	}
	info, err := s.CreateWithValue(ctx, value, "tok_"+tokenID, n)
	return value, info, err
}

// CreateWithValue stores a token whose value and id the caller chose. Only
// the local demo seed uses it, for its documented demo tokens.
func (s *Tokens) CreateWithValue(ctx context.Context, value, tokenID string, n NewToken) (Info, error) {
	if err := CheckFormat(value); err != nil {
		return Info{}, err
	}
	if err := n.validate(); err != nil {
		return Info{}, err
	}
	acct, err := s.accounts.Get(ctx, n.AccountID)
	if err != nil {
		return Info{}, fmt.Errorf("read account %s: %w", n.AccountID, err)
	}
	if acct == nil {
		return Info{}, ErrNoAccount
	}
	hash := HashToken(value)
	now := s.clock.Now()
	info := Info{
		TokenID: tokenID, AccountID: acct.ID, CompanyID: acct.CompanyID, Kind: n.Kind,
		Scopes: dedupe(n.Scopes), Name: n.Name, Description: n.Description,
		CreatedAt: now.Format(time.RFC3339Nano), Replaces: n.replaces,
	}
	// The token is usable only once its TOKEN# item exists, so that item is
	// written last: a failure half-way leaves no usable, unlisted token.
	if err := s.table.Put(ctx, refItem{Key: refKey(tokenID), TokenID: tokenID, AccountID: acct.ID, Hash: hash}, storage.ItemAbsent()); err != nil {
		if storage.IsConditionFailed(err) {
			return Info{}, ErrTokenExists
		}
		return Info{}, fmt.Errorf("store token reference: %w", err)
	}
	if err := s.table.Put(ctx, tokenItem{Key: listingKey(acct.ID, tokenID), Info: info}, nil); err != nil {
		return Info{}, fmt.Errorf("store token listing: %w", err)
	}
	if err := s.table.Put(ctx, tokenItem{Key: tokenKey(hash), Info: info}, storage.ItemAbsent()); err != nil {
		if storage.IsConditionFailed(err) {
			return Info{}, ErrTokenExists
		}
		return Info{}, fmt.Errorf("store token: %w", err)
	}
	s.unknown.Forget(hash) // usable at once here, even if just tried
	if n.replaces == "" {
		if err := s.audit(ctx, now, n.By, AuditCreated, info, ""); err != nil {
			return Info{}, err
		}
	}
	return info, nil
}

// List returns the account's tokens, revoked ones included, never values,
// oldest first. Each one's last use is the later of the one persisted on
// its listing item and the one the admission state recorded since; a later
// one is persisted, so it outlives the state item.
func (s *Tokens) List(ctx context.Context, accountID string) ([]Info, error) {
	items, err := storage.QueryPartition[tokenItem](ctx, s.table, storage.AccountPK(accountID), "TOKEN#")
	if err != nil {
		return nil, err
	}
	uses, err := s.admission.LastUses(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("read last uses: %w", err)
	}
	out := make([]Info, len(items))
	for i, it := range items {
		if used, ok := uses[it.TokenID]; ok {
			if err := s.persistLastUse(ctx, &it.Info, used); err != nil {
				return nil, err
			}
		}
		out[i] = it.Info
	}
	return out, nil
}

// persistLastUse writes used as info's last use when it is later than the
// stored one (a condition keeps a concurrent, later write).
func (s *Tokens) persistLastUse(ctx context.Context, info *Info, used time.Time) error {
	at := used.UTC().Format(time.RFC3339)
	if info.LastUsedAt != "" && !parseTime(info.LastUsedAt).Before(used) {
		return nil
	}
	info.LastUsedAt = at
	name := expression.Name("lastUsedAt")
	cond := expression.AttributeExists(expression.Name(storage.AttrPK)).
		And(expression.Or(expression.AttributeNotExists(name), name.LessThan(expression.Value(at))))
	err := s.table.Update(ctx, listingKey(info.AccountID, info.TokenID), expression.Set(name, expression.Value(at)), &cond)
	if err != nil && !storage.IsConditionFailed(err) {
		return fmt.Errorf("persist last use of %s: %w", info.TokenID, err)
	}
	return nil
}

// Get returns the account's token with that id. Another account's token is
// ErrTokenUnknown, exactly like a token that does not exist.
func (s *Tokens) Get(ctx context.Context, accountID, tokenID string) (Info, error) {
	if validate.IDProblem("token id", tokenID) != "" || validate.IDProblem("account", accountID) != "" {
		return Info{}, ErrTokenUnknown
	}
	item, err := storage.Get[tokenItem](ctx, s.table, listingKey(accountID, tokenID))
	if err != nil {
		return Info{}, fmt.Errorf("read token: %w", err)
	}
	if item == nil {
		return Info{}, ErrTokenUnknown
	}
	return item.Info, nil
}

// Revoke revokes a token by id, whatever its account (the operator's
// form; see RevokeInAccount). It takes effect on the token's next request
// on every instance. Revoking twice is harmless.
func (s *Tokens) Revoke(ctx context.Context, tokenID string) (Info, error) {
	ref, err := s.ref(ctx, tokenID)
	if err != nil {
		return Info{}, err
	}
	return s.revoke(ctx, ref, Operator)
}

// RevokeInAccount revokes the account's token with that id on behalf of by.
// Another account's token is ErrTokenUnknown and is left as it is.
func (s *Tokens) RevokeInAccount(ctx context.Context, accountID, tokenID string, by Actor) (Info, error) {
	ref, err := s.refInAccount(ctx, accountID, tokenID)
	if err != nil {
		return Info{}, err
	}
	return s.revoke(ctx, ref, by)
}

// revoke marks the token item first (cold instances read it), then the
// account's admission state learns the id (warm instances check it on
// every request).
func (s *Tokens) revoke(ctx context.Context, ref *refItem, by Actor) (Info, error) {
	now := s.clock.Now()
	before, err := s.Get(ctx, ref.AccountID, ref.TokenID)
	if err != nil {
		return Info{}, err
	}
	if err := s.keepLastUse(ctx, &before); err != nil {
		return Info{}, err
	}
	stamp := now.Format(time.RFC3339Nano)
	for _, key := range []storage.Key{tokenKey(ref.Hash), listingKey(ref.AccountID, ref.TokenID)} {
		if err := s.markRevoked(ctx, key, stamp); err != nil {
			return Info{}, err
		}
	}
	if err := s.admission.RecordRevocation(ctx, ref.AccountID, ref.TokenID); err != nil {
		return Info{}, fmt.Errorf("record revocation: %w", err)
	}
	after, err := s.Get(ctx, ref.AccountID, ref.TokenID)
	if err != nil {
		return Info{}, fmt.Errorf("read revoked token: %w", err)
	}
	if before.RevokedAt == "" {
		if err := s.audit(ctx, now, by, AuditRevoked, after, ""); err != nil {
			return Info{}, err
		}
	}
	return after, nil
}

// keepLastUse persists the token's last use from the admission state,
// which forgets it once the token is revoked.
func (s *Tokens) keepLastUse(ctx context.Context, info *Info) error {
	uses, err := s.admission.LastUses(ctx, info.AccountID)
	if err != nil {
		return fmt.Errorf("read last uses: %w", err)
	}
	if used, ok := uses[info.TokenID]; ok {
		return s.persistLastUse(ctx, info, used)
	}
	return nil
}

func (s *Tokens) markRevoked(ctx context.Context, key storage.Key, now string) error {
	update := expression.Set(expression.Name("revokedAt"), expression.Name("revokedAt").IfNotExists(expression.Value(now)))
	return s.table.Update(ctx, key, update, storage.ItemExists())
}

// Rotation asks for a token's replacement.
type Rotation struct {
	AccountID string
	TokenID   string
	// KeepOld keeps the old token working for RotationGrace; otherwise it
	// is revoked at once.
	KeepOld bool
	By      Actor
}

// Rotate issues a new token with the old one's kind, scopes, name and
// description, and returns its value (shown once), the new token and the
// old one as it is now. The old token is revoked at once, or keeps working
// until RotationGrace from now, on every instance. Another account's token
// is ErrTokenUnknown; a revoked or expired token ErrTokenInactive; a token
// already rotated ErrAlreadyRotated.
func (s *Tokens) Rotate(ctx context.Context, r Rotation) (string, Info, Info, error) {
	ref, err := s.refInAccount(ctx, r.AccountID, r.TokenID)
	if err != nil {
		return "", Info{}, Info{}, err
	}
	old, err := s.Get(ctx, r.AccountID, r.TokenID)
	if err != nil {
		return "", Info{}, Info{}, err
	}
	now := s.clock.Now()
	switch {
	case !old.Usable(now):
		return "", Info{}, Info{}, ErrTokenInactive
	case old.ReplacedBy != "":
		return "", Info{}, Info{}, ErrAlreadyRotated
	}
	value, created, err := s.Create(ctx, NewToken{
		AccountID: old.AccountID, Kind: old.Kind, Scopes: old.Scopes, Name: old.Name,
		Description: old.Description, By: r.By, replaces: old.TokenID,
	})
	if err != nil {
		return "", Info{}, Info{}, fmt.Errorf("create the new token: %w", err)
	}
	if err := s.setReplacedBy(ctx, old, created.TokenID); err != nil {
		return "", Info{}, Info{}, err
	}
	detail := "replaced by " + created.TokenID + "; the old token was revoked"
	if r.KeepOld {
		end := now.Add(RotationGrace)
		if err := s.expire(ctx, ref, end); err != nil {
			return "", Info{}, Info{}, err
		}
		detail = "replaced by " + created.TokenID + "; the old token works until " + end.UTC().Format("2006-01-02 15:04 UTC")
	} else if _, err := s.revoke(ctx, ref, r.By); err != nil {
		return "", Info{}, Info{}, fmt.Errorf("revoke the old token: %w", err)
	}
	after, err := s.Get(ctx, r.AccountID, r.TokenID)
	if err != nil {
		return "", Info{}, Info{}, err
	}
	if err := s.audit(ctx, now, r.By, AuditRotated, after, detail); err != nil {
		return "", Info{}, Info{}, err
	}
	return value, created, after, nil
}

func (s *Tokens) setReplacedBy(ctx context.Context, old Info, newID string) error {
	err := s.table.Update(ctx, listingKey(old.AccountID, old.TokenID),
		expression.Set(expression.Name("replacedBy"), expression.Value(newID)), storage.ItemExists())
	if err != nil {
		return fmt.Errorf("link the rotated token: %w", err)
	}
	return nil
}

// expire ends the token at end, like revoke does: the token item first, then
// the account's admission state. An earlier end already set is kept.
func (s *Tokens) expire(ctx context.Context, ref *refItem, end time.Time) error {
	stamp := end.UTC().Format(time.RFC3339Nano)
	name := expression.Name(attrTokenEnd)
	update := expression.Set(name, name.IfNotExists(expression.Value(stamp)))
	for _, key := range []storage.Key{tokenKey(ref.Hash), listingKey(ref.AccountID, ref.TokenID)} {
		if err := s.table.Update(ctx, key, update, storage.ItemExists()); err != nil {
			return fmt.Errorf("set the token's end: %w", err)
		}
	}
	if err := s.admission.RecordExpiry(ctx, ref.AccountID, ref.TokenID, end); err != nil {
		return fmt.Errorf("record expiry: %w", err)
	}
	return nil
}

func (s *Tokens) ref(ctx context.Context, tokenID string) (*refItem, error) {
	if validate.IDProblem("token id", tokenID) != "" {
		return nil, ErrTokenUnknown
	}
	ref, err := storage.Get[refItem](ctx, s.table, refKey(tokenID))
	if err != nil {
		return nil, fmt.Errorf("read token reference: %w", err)
	}
	if ref == nil {
		return nil, ErrTokenUnknown
	}
	return ref, nil
}

// refInAccount is ref for a token that must be the account's.
func (s *Tokens) refInAccount(ctx context.Context, accountID, tokenID string) (*refItem, error) {
	ref, err := s.ref(ctx, tokenID)
	if err != nil {
		return nil, err
	}
	if ref.AccountID != accountID {
		return nil, ErrTokenUnknown
	}
	return ref, nil
}

// lookup reads a token's item by hash, strongly consistent. A hash found
// unknown in the last UnknownTokenTTL is unknown without a read.
func (s *Tokens) lookup(ctx context.Context, hash string) (*Info, error) {
	if s.unknown.Has(hash) {
		return nil, nil
	}
	epoch := s.unknown.Epoch()
	item, err := storage.Get[tokenItem](ctx, s.table, tokenKey(hash))
	if err != nil {
		return nil, err
	}
	if item == nil {
		s.unknown.Remember(hash, epoch)
		return nil, nil
	}
	return &item.Info, nil
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Lookup returns a token by id, whatever its account (the operator's form;
// see Get).
func (s *Tokens) Lookup(ctx context.Context, tokenID string) (Info, error) {
	ref, err := s.ref(ctx, tokenID)
	if err != nil {
		return Info{}, err
	}
	return s.Get(ctx, ref.AccountID, ref.TokenID)
}
