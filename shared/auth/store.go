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
//   - TOKEN#<sha256> / TOKEN: its facts and revocation time, read to
//     authenticate;
//   - ACCOUNT#<account> / TOKEN#<id>: its listing entry in the account;
//   - TOKENID#<id> / TOKENID: where to find it by id, to revoke it.
func tokenKey(hash string) storage.Key { return storage.Key{PK: "TOKEN#" + hash, SK: "TOKEN"} }
func listingKey(accountID, tokenID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "TOKEN#" + tokenID}
}
func refKey(tokenID string) storage.Key { return storage.Key{PK: "TOKENID#" + tokenID, SK: "TOKENID"} }

// Info describes a token, never its value.
type Info struct {
	TokenID   string   `dynamodbav:"tokenId" json:"id"`
	AccountID string   `dynamodbav:"accountId" json:"accountId"`
	CompanyID string   `dynamodbav:"companyId" json:"companyId"`
	Kind      string   `dynamodbav:"kind" json:"kind"`
	Scopes    []string `dynamodbav:"scopes" json:"scopes"`
	Name      string   `dynamodbav:"name" json:"name"`
	CreatedAt string   `dynamodbav:"createdAt" json:"createdAt"`
	RevokedAt string   `dynamodbav:"revokedAt,omitempty" json:"revokedAt,omitempty"`
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

// Revocations is told about each revocation so that warm instances, which
// cache token facts, refuse the token on its very next use.
type Revocations interface {
	RecordRevocation(ctx context.Context, accountID, tokenID string) error
}

// Errors of the token store.
var (
	ErrNoAccount    = errors.New("account does not exist")
	ErrTokenUnknown = errors.New("token does not exist")
	ErrTokenExists  = errors.New("token already exists")
)

// Tokens creates, lists and revokes tokens.
type Tokens struct {
	table       *storage.Table
	clock       clock.Clock
	accounts    *accounts.Registry
	revocations Revocations
	// unknown remembers tokens that matched none (see UnknownTokenTTL).
	unknown *unknownTokens
}

// NewTokens returns the token store. revocations is told about every revoke.
func NewTokens(table *storage.Table, c clock.Clock, revocations Revocations) *Tokens {
	return &Tokens{table: table, clock: c, accounts: accounts.NewRegistry(table, c), revocations: revocations, unknown: newUnknownTokens(c, maxUnknownTokens)}
}

// NewToken is what a token is created with.
type NewToken struct {
	AccountID string
	Kind      string
	Scopes    []string
	Name      string
}

func (n NewToken) validate() error {
	var v validate.Errors
	v.ID("account", n.AccountID)
	v.OneOf("kind", n.Kind, KindPrivate, KindMarketplace)
	if v.Check(len(n.Scopes) > 0, "scopes must name at least one scope") {
		for _, s := range n.Scopes {
			v.Check(scopes.Known(s), fmt.Sprintf("scope %q is not a known scope", s))
		}
	}
	v.MaxLen("name", n.Name, 100)
	return v.Err()
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
	info := Info{
		TokenID: tokenID, AccountID: acct.ID, CompanyID: acct.CompanyID, Kind: n.Kind,
		Scopes: dedupe(n.Scopes), Name: n.Name, CreatedAt: s.clock.Now().Format(time.RFC3339Nano),
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
	return info, nil
}

// List returns the account's tokens, revoked ones included, never values.
func (s *Tokens) List(ctx context.Context, accountID string) ([]Info, error) {
	items, err := storage.QueryPartition[tokenItem](ctx, s.table, storage.AccountPK(accountID), "TOKEN#")
	if err != nil {
		return nil, err
	}
	out := make([]Info, len(items))
	for i, it := range items {
		out[i] = it.Info
	}
	return out, nil
}

// Revoke revokes a token by id. It takes effect on the token's next request
// on every instance: the token item is marked first (cold instances read it),
// then the account's admission state learns the id (warm instances check it
// on every request). Revoking twice is harmless.
func (s *Tokens) Revoke(ctx context.Context, tokenID string) (Info, error) {
	if msg := validate.IDProblem("token id", tokenID); msg != "" {
		return Info{}, ErrTokenUnknown
	}
	ref, err := storage.Get[refItem](ctx, s.table, refKey(tokenID))
	if err != nil {
		return Info{}, fmt.Errorf("read token reference: %w", err)
	}
	if ref == nil {
		return Info{}, ErrTokenUnknown
	}
	now := s.clock.Now().Format(time.RFC3339Nano)
	for _, key := range []storage.Key{tokenKey(ref.Hash), listingKey(ref.AccountID, tokenID)} {
		if err := s.markRevoked(ctx, key, now); err != nil {
			return Info{}, err
		}
	}
	if err := s.revocations.RecordRevocation(ctx, ref.AccountID, tokenID); err != nil {
		return Info{}, fmt.Errorf("record revocation: %w", err)
	}
	item, err := storage.Get[tokenItem](ctx, s.table, listingKey(ref.AccountID, tokenID))
	if err != nil || item == nil {
		return Info{}, fmt.Errorf("read revoked token: %w", err)
	}
	return item.Info, nil
}

func (s *Tokens) markRevoked(ctx context.Context, key storage.Key, now string) error {
	update := expression.Set(expression.Name("revokedAt"), expression.Name("revokedAt").IfNotExists(expression.Value(now)))
	cond := expression.AttributeExists(expression.Name(storage.AttrPK))
	return s.table.Update(ctx, key, update, &cond)
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
