package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
//   - ACCOUNT#<account> / TOKEN#<id>: its listing entry in the account (the
//     same facts, with its persisted last use);
//   - TOKENID#<id> / TOKENID: where to find it by id, to revoke or rotate it.
//
// Each change is also an audit entry, ACCOUNT#<account> / AUDIT#<time>#<token id>#<action>#<random>.
// Create, Revoke and Rotate each write every item of their change, the audit
// entry and, for an end of a token, the admission state's record of it in
// one transaction: a change is stored whole or not at all, and its
// conditions (an id or hash not taken, a token not revoked yet or not
// rotated yet) hold when it is written, however many changes race.
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
	// Install is the marketplace install an issued token belongs to (its
	// grant ref, see package marketplace); empty for other tokens.
	Install string `dynamodbav:"install,omitempty" json:"install,omitempty"`
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
	case !now.Before(clock.Parse(i.ExpiresAt)):
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

// AdmissionState is the account's admission state (ratelimit.Limiter): it
// records each revocation and expiry in the transaction that makes it, so
// that warm instances, which cache token facts, refuse the token on its very
// next use, and it is asked for the last uses it records.
type AdmissionState interface {
	AddRevocation(tx *storage.Tx, accountID string, tokenIDs ...string) *storage.Tx
	AddExpiry(tx *storage.Tx, accountID, tokenID string, end time.Time) *storage.Tx
	LastUses(ctx context.Context, accountID string) (map[string]time.Time, error)
}

// Errors of the token store.
var (
	ErrNoAccount    = errors.New("account does not exist")
	ErrTokenUnknown = errors.New("token does not exist")
	ErrTokenExists  = errors.New("token already exists")
	// ErrAlreadyRevoked: the token was revoked before; nothing changed.
	ErrAlreadyRevoked = errors.New("token was revoked already")
	// ErrTokenInactive: the token is revoked or expired, so it cannot be
	// rotated.
	ErrTokenInactive = errors.New("token is revoked or expired")
	// ErrAlreadyRotated: the token has a successor already.
	ErrAlreadyRotated = errors.New("token was rotated already: revoke it to end its grace period")
)

// noAccountError is ErrNoAccount naming the account.
type noAccountError struct{ id string }

func (e noAccountError) Error() string        { return "account " + e.id + " does not exist" }
func (e noAccountError) Is(target error) bool { return target == ErrNoAccount }

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

// NewTokens returns the token store. admission records every revocation and
// expiry, in the transaction that makes it.
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
}

func (n NewToken) validate() error {
	var v validate.Errors
	v.ID("account", n.AccountID)
	v.OneOf("kind", n.Kind, KindPrivate, KindMarketplace)
	if v.Check(len(n.Scopes) > 0, "scopes must name at least one scope") {
		for _, s := range n.Scopes {
			if !scopes.Known(s) {
				v.Add(unknownScope(s))
			}
		}
	}
	checkLabels(&v, n.Name, n.Description)
	return v.Err()
}

// checkLabels checks a token's name and description: the one rule of both,
// for a new token and an edited one alike.
func checkLabels(v *validate.Errors, name, description string) {
	v.MaxLen("name", name, MaxNameLength)
	v.MaxLen("description", description, MaxDescriptionLength)
	nameProblem, descriptionProblem := TextProblems(name, description)
	v.Check(nameProblem == "", nameProblem)
	v.Check(descriptionProblem == "", descriptionProblem)
}

// TextProblems says what the rule for stored texts (validate.TextProblem:
// valid UTF-8, nothing invisible or reordering) finds wrong with a token's
// name and with its description (which may span lines), in words for a page
// or the CLI; "" when nothing. Every path that stores them (the portal's
// forms, platformctl) checks them through here.
func TextProblems(name, description string) (nameProblem, descriptionProblem string) {
	return validate.TextProblem("Token name", name), validate.MultilineTextProblem("Description", description)
}

// unknownScope says that s is not a scope, and which scopes are nearest.
func unknownScope(s string) string {
	msg := fmt.Sprintf("scope %q is not a known scope", clip(s))
	if near := scopes.Nearest(s, 3); len(near) > 0 {
		msg += " (nearest: " + strings.Join(near, ", ") + ")"
	}
	return msg
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
	value, tokenID, err := newToken()
	if err != nil {
		return "", Info{}, err
	}
	info, err := s.CreateWithValue(ctx, value, tokenID, n)
	return value, info, err
}

// newToken draws a new token's value and id.
func newToken() (value, tokenID string, err error) {
	if value, err = GenerateToken(); err != nil {
		return "", "", fmt.Errorf("generate token: %w", err)
	}
	random, err := randomBase62(16)
	if err != nil {
		return "", "", fmt.Errorf("generate token id: %w", err)
	}
	return value, "tok_" + random, nil
}

// CreateWithValue stores a token whose value and id the caller chose. Only
// the local demo seed uses it, for its documented demo tokens. An id or a
// value already taken is ErrTokenExists, with nothing written.
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
		return Info{}, noAccountError{n.AccountID}
	}
	now := s.clock.Now()
	info := Info{
		TokenID: tokenID, AccountID: acct.ID, CompanyID: acct.CompanyID, Kind: n.Kind,
		Scopes: dedupe(n.Scopes), Name: n.Name, Description: n.Description,
		CreatedAt: clock.Timestamp(now),
	}
	hash := HashToken(value)
	tx := addToken(s.table.Tx(), info, hash)
	addAudit(tx, now, n.By, AuditCreated, info, "")
	if err := tx.Commit(ctx); err != nil {
		return Info{}, fmt.Errorf("store token: %w", err)
	}
	s.unknown.Forget(hash) // usable at once here, even if just tried
	return info, nil
}

// addToken adds a new token's three items to tx, each on condition that its
// key is free: a token id or value already taken is ErrTokenExists.
func addToken(tx *storage.Tx, info Info, hash string) *storage.Tx {
	return tx.
		Put(refItem{Key: refKey(info.TokenID), TokenID: info.TokenID, AccountID: info.AccountID, Hash: hash}, storage.ItemAbsent()).Else(ErrTokenExists).
		Put(tokenItem{Key: listingKey(info.AccountID, info.TokenID), Info: info}, storage.ItemAbsent()).Else(ErrTokenExists).
		Put(tokenItem{Key: tokenKey(hash), Info: info}, storage.ItemAbsent()).Else(ErrTokenExists)
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
	if !info.noteUse(used) {
		return nil
	}
	name := expression.Name(attrLastUsedAt)
	cond := expression.AttributeExists(expression.Name(storage.AttrPK)).
		And(expression.Or(expression.AttributeNotExists(name), name.LessThan(expression.Value(info.LastUsedAt))))
	err := s.table.Update(ctx, listingKey(info.AccountID, info.TokenID), expression.Set(name, expression.Value(info.LastUsedAt)), &cond)
	if err != nil && !storage.IsConditionFailed(err) {
		return fmt.Errorf("persist last use of %s: %w", info.TokenID, err)
	}
	return nil
}

// noteUse makes used the token's last use when it is later than the one it
// has, and reports whether it was.
func (i *Info) noteUse(used time.Time) bool {
	if i.LastUsedAt != "" && !clock.Parse(i.LastUsedAt).Before(used) {
		return false
	}
	i.LastUsedAt = clock.Timestamp(used)
	return true
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
// on every instance. A token revoked before is left as it is: the answer
// is ErrAlreadyRevoked, with the token as it was revoked.
func (s *Tokens) Revoke(ctx context.Context, tokenID string) (Info, error) {
	ref, err := s.ref(ctx, tokenID)
	if err != nil {
		return Info{}, err
	}
	return s.revoke(ctx, ref, Operator)
}

// RevokeInAccount revokes the account's token with that id on behalf of by,
// like Revoke. Another account's token is ErrTokenUnknown and is left as it
// is.
func (s *Tokens) RevokeInAccount(ctx context.Context, accountID, tokenID string, by Actor) (Info, error) {
	ref, err := s.refInAccount(ctx, accountID, tokenID)
	if err != nil {
		return Info{}, err
	}
	return s.revoke(ctx, ref, by)
}

func (s *Tokens) revoke(ctx context.Context, ref *refItem, by Actor) (Info, error) {
	info, err := s.Get(ctx, ref.AccountID, ref.TokenID)
	if err != nil {
		return Info{}, err
	}
	if err := revocable(info); err != nil {
		return info, err
	}
	tx := s.table.Tx()
	if err := s.addRevocation(ctx, tx, ref, &info, s.clock.Now(), by, notRevoked()); err != nil {
		return Info{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return refusal(err, ref, revocable)
	}
	return info, nil
}

// addRevocation adds to tx the revocation of the token info describes (info
// becomes the token as revoked), on condition cond of its listing: both its
// items marked, its last use kept on its listing (the admission state
// forgets it), the admission state's record and the audit entry.
func (s *Tokens) addRevocation(ctx context.Context, tx *storage.Tx, ref *refItem, info *Info, now time.Time, by Actor, cond expression.ConditionBuilder) error {
	uses, err := s.admission.LastUses(ctx, info.AccountID)
	if err != nil {
		return fmt.Errorf("read last uses: %w", err)
	}
	// A use between this read and the transaction is lost with the state's
	// record of it: the listing then shows the one before.
	var lastUse string
	if used, ok := uses[info.TokenID]; ok && info.noteUse(used) {
		lastUse = info.LastUsedAt
	}
	info.RevokedAt = clock.Timestamp(now)
	markToken(tx, ref, *info, lastUse, cond)
	s.admission.AddRevocation(tx, ref.AccountID, ref.TokenID)
	addAudit(tx, now, by, AuditRevoked, *info, "")
	return nil
}

// Rotation asks for a token's replacement.
type Rotation struct {
	AccountID string
	TokenID   string
	// KeepOld keeps the old token working for RotationGrace; otherwise it
	// is revoked at once.
	KeepOld bool
	// Until is when the kept token stops, when it is sooner than
	// RotationGrace from now and still ahead (zero: RotationGrace from
	// now): the end a page promised is the end the token gets.
	Until time.Time
	By    Actor
}

// Rotate issues a new token with the old one's kind, scopes, name and
// description, and returns its value (shown once), the new token and the
// old one as it is now. The old token is revoked at once, or keeps working
// until RotationGrace from now, on every instance. Another account's token
// is ErrTokenUnknown; a revoked or expired token ErrTokenInactive; a token
// already rotated ErrAlreadyRotated. Of rotations of one token at the same
// moment one succeeds, and the others answer so and write nothing.
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
	if err := rotatable(old, now); err != nil {
		return "", Info{}, Info{}, err
	}
	value, tokenID, err := newToken()
	if err != nil {
		return "", Info{}, Info{}, err
	}
	next := Info{
		TokenID: tokenID, AccountID: old.AccountID, CompanyID: old.CompanyID, Kind: old.Kind, Scopes: old.Scopes,
		Name: old.Name, Description: old.Description, CreatedAt: clock.Timestamp(now), Replaces: old.TokenID,
	}
	hash := HashToken(value)
	tx := addToken(s.table.Tx(), next, hash)
	after := old
	after.ReplacedBy = next.TokenID
	detail := "replaced by " + next.TokenID + "; the old token was revoked"
	if r.KeepOld {
		end := now.Add(RotationGrace)
		if r.Until.After(now) && r.Until.Before(end) {
			end = r.Until
		}
		after.ExpiresAt = clock.Timestamp(end)
		markToken(tx, ref, after, "", notRotated())
		s.admission.AddExpiry(tx, ref.AccountID, ref.TokenID, end)
		detail = "replaced by " + next.TokenID + "; the old token works until " + end.UTC().Format("2006-01-02 15:04 UTC")
	} else if err := s.addRevocation(ctx, tx, ref, &after, now, r.By, notRotated()); err != nil {
		return "", Info{}, Info{}, err
	}
	addAudit(tx, now, r.By, AuditRotated, after, detail)
	if err := tx.Commit(ctx); err != nil {
		_, err = refusal(err, ref, func(found Info) error { return rotatable(found, now) })
		return "", Info{}, Info{}, err
	}
	s.unknown.Forget(hash)
	return value, next, after, nil
}

// Attributes of a token's items that changes set.
const (
	attrRevokedAt  = "revokedAt"
	attrReplacedBy = "replacedBy"
	attrLastUsedAt = "lastUsedAt"
)

// notRevoked is a revocation's condition on the token's listing: the token
// exists and is not revoked.
func notRevoked() expression.ConditionBuilder {
	return expression.AttributeExists(expression.Name(storage.AttrPK)).
		And(expression.AttributeNotExists(expression.Name(attrRevokedAt)))
}

// notRotated is a rotation's condition on the token's listing: the token
// exists, is not revoked and has no successor. Only a rotation gives a
// token an end, so a token without a successor has not expired either.
func notRotated() expression.ConditionBuilder {
	return notRevoked().And(expression.AttributeNotExists(expression.Name(attrReplacedBy)))
}

// revocable tells whether the token can be revoked: not a second time.
func revocable(info Info) error {
	if info.RevokedAt != "" {
		return ErrAlreadyRevoked
	}
	return nil
}

// rotatable tells whether the token can be rotated at now: a working token
// without a successor.
func rotatable(info Info, now time.Time) error {
	switch {
	case !info.Usable(now):
		return ErrTokenInactive
	case info.ReplacedBy != "":
		return ErrAlreadyRotated
	}
	return nil
}

// markToken adds to tx the update of the token's two items to after's
// revocation, end and successor, those it has, on condition cond of its
// listing; the listing also gets lastUse unless it is empty. Each of these
// attributes is set once and never changes (the conditions see to that),
// so a value read before the transaction is still right, and one not read
// is left as it is.
func markToken(tx *storage.Tx, ref *refItem, after Info, lastUse string, cond expression.ConditionBuilder) *storage.Tx {
	marks := func() expression.UpdateBuilder {
		var upd expression.UpdateBuilder
		for name, value := range map[string]string{attrRevokedAt: after.RevokedAt, attrTokenEnd: after.ExpiresAt, attrReplacedBy: after.ReplacedBy} {
			if value != "" {
				upd = upd.Set(expression.Name(name), expression.Value(value))
			}
		}
		return upd
	}
	listing := marks()
	if lastUse != "" {
		listing = listing.Set(expression.Name(attrLastUsedAt), expression.Value(lastUse))
	}
	return tx.Update(listingKey(ref.AccountID, ref.TokenID), listing, &cond).
		Update(tokenKey(ref.Hash), marks(), storage.ItemExists())
}

// refusal turns the failure of a transaction that changes a token into its
// answer, from the token's listing that DynamoDB returns with a failed
// condition: what answer says of it (with the listing as found),
// ErrTokenUnknown when there is no listing, or the failure itself.
func refusal(err error, ref *refItem, answer func(Info) error) (Info, error) {
	if !storage.IsConditionFailed(err) {
		return Info{}, err
	}
	found, decodeErr := storage.FailedConditionItem[tokenItem](err, listingKey(ref.AccountID, ref.TokenID))
	switch {
	case decodeErr != nil:
		return Info{}, decodeErr
	case found == nil:
		return Info{}, ErrTokenUnknown
	}
	if refused := answer(found.Info); refused != nil {
		return found.Info, refused
	}
	return Info{}, fmt.Errorf("change token %s: %w", ref.TokenID, err)
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
