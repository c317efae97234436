package auth

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
)

// Authenticator turns a bearer token into a Session.
//
// A token's facts (account, company, kind, scopes) never change, so they are
// cached in memory by hash. Revocation can change at any moment, so it is not
// cached: every request's admission (ratelimit.Limiter.Admit) checks the
// account's state item, which lists revoked token ids, in the same write
// that counts the request. That item carries a TTL and may be deleted while
// the account is idle, taking its revoked list with it; its birth time
// (bornAt) tells when that happened, and a cached token is trusted under a
// state item only after the token's own item was read once after that state
// item was born (Session.Confirm). A rotated token's end (its grace period)
// is checked the same way: the state item records it for warm instances,
// and every read of the token item teaches the cache.
type Authenticator struct {
	store *Tokens
	clock clock.Clock

	mu    sync.Mutex
	cache map[string]*cacheEntry
}

// maxCachedTokens bounds the cache; when full it is emptied and refilled.
const maxCachedTokens = 10000

// skew is how far apart two instances' clocks may be when comparing a state
// item's birth time with the time a token was read.
const skew = 5 * time.Second

type cacheEntry struct {
	principal Principal
	mu        sync.Mutex
	// trustedBorn is the state item birth time under which the token was
	// last confirmed unrevoked; 0 means never.
	trustedBorn int64
	// endsAt is when the token stops working (epoch ms; 0: never), as the
	// token item said when last read.
	endsAt int64
}

// ended reports whether the entry's token has stopped working at now.
func (e *cacheEntry) ended(now time.Time) bool {
	e.mu.Lock()
	end := e.endsAt
	e.mu.Unlock()
	return end != 0 && now.UnixMilli() >= end
}

// learn records what a read of the token item said about its end.
func (e *cacheEntry) learn(info *Info) {
	var end int64
	if info.ExpiresAt != "" {
		end = clock.Parse(info.ExpiresAt).UnixMilli()
	}
	e.mu.Lock()
	e.endsAt = end
	e.mu.Unlock()
}

// errExpired is the answer to a token past its end: a rotated token's grace
// period, or a marketplace app's access token's day.
func errExpired() error {
	return apierror.InvalidToken("Invalid token: the token has expired")
}

// NewAuthenticator returns an authenticator reading tokens from store.
func NewAuthenticator(store *Tokens, c clock.Clock) *Authenticator {
	return &Authenticator{store: store, clock: c, cache: map[string]*cacheEntry{}}
}

// Session is one request's authenticated token.
type Session struct {
	Principal *Principal
	auth      *Authenticator
	hash      string
	entry     *cacheEntry
	// readAt is when this request read the token item (zero when the facts
	// came from the cache).
	readAt time.Time
}

// Authenticate checks the Authorization header value. Missing, malformed,
// unknown and revoked tokens are 401s; a malformed token or a bad checksum is
// refused without a database read.
func (a *Authenticator) Authenticate(ctx context.Context, header string) (*Session, error) {
	value, err := bearer(header)
	if err != nil {
		return nil, err
	}
	if err := CheckFormat(value); err != nil {
		return nil, apierror.InvalidToken("Invalid token: the token is malformed")
	}
	hash := HashToken(value)
	if entry := a.cached(hash); entry != nil {
		if entry.ended(a.clock.Now()) {
			a.Forget(hash)
			return nil, errExpired()
		}
		return &Session{Principal: &entry.principal, auth: a, hash: hash, entry: entry}, nil
	}
	readAt := a.clock.Now()
	info, err := a.store.lookup(ctx, hash)
	if err != nil {
		return nil, err
	}
	if info == nil {
		return nil, apierror.InvalidToken("Invalid token: the token is unknown")
	}
	if info.RevokedAt != "" {
		return nil, apierror.InvalidToken("Invalid token: the token has been revoked")
	}
	if info.Status(readAt) == StatusExpired {
		return nil, errExpired()
	}
	entry := &cacheEntry{principal: Principal{
		TokenID: info.TokenID, AccountID: info.AccountID, CompanyID: info.CompanyID,
		Kind: info.Kind, Scopes: info.Scopes, Install: info.Install,
	}}
	entry.learn(info)
	a.remember(hash, entry)
	return &Session{Principal: &entry.principal, auth: a, hash: hash, entry: entry, readAt: readAt}, nil
}

// Confirm is called with the birth time of the account state item that just
// admitted the request. It returns a 401 when the token turns out revoked.
func (s *Session) Confirm(ctx context.Context, bornAt int64) error {
	s.entry.mu.Lock()
	trusted := s.entry.trustedBorn
	s.entry.mu.Unlock()
	if bornAt != 0 && trusted == bornAt {
		return nil
	}
	// This request's own read of the token item came after the state item
	// was born: the read saw every revocation the state item could miss.
	if bornAt != 0 && !s.readAt.IsZero() && time.UnixMilli(bornAt).Add(skew).Before(s.readAt) {
		s.trust(bornAt)
		return nil
	}
	info, err := s.auth.store.lookup(ctx, s.hash)
	if err != nil {
		return err
	}
	if info == nil || info.RevokedAt != "" {
		s.auth.Forget(s.hash)
		return apierror.InvalidToken("Invalid token: the token has been revoked")
	}
	s.entry.learn(info)
	if info.Status(s.auth.clock.Now()) == StatusExpired {
		s.auth.Forget(s.hash)
		return errExpired()
	}
	s.trust(bornAt)
	return nil
}

func (s *Session) trust(bornAt int64) {
	s.entry.mu.Lock()
	s.entry.trustedBorn = bornAt
	s.entry.mu.Unlock()
}

// Revoked drops the token from the cache after admission found it revoked.
func (s *Session) Revoked() { s.auth.Forget(s.hash) }

// Forget drops a token from the cache.
func (a *Authenticator) Forget(hash string) {
	a.mu.Lock()
	delete(a.cache, hash)
	a.mu.Unlock()
}

func (a *Authenticator) cached(hash string) *cacheEntry {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cache[hash]
}

func (a *Authenticator) remember(hash string, e *cacheEntry) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.cache) >= maxCachedTokens {
		clear(a.cache)
	}
	a.cache[hash] = e
}

func bearer(header string) (string, error) {
	header = strings.TrimSpace(header)
	if header == "" {
		return "", apierror.Unauthorized("Missing bearer token: send Authorization: Bearer <token>")
	}
	scheme, value, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", apierror.Unauthorized("Invalid authorization header: use the Bearer scheme")
	}
	if strings.TrimSpace(value) == "" {
		// The scheme is right; what is missing is the token itself, most
		// often a shell variable ($TOKEN) that was never set.
		return "", apierror.Unauthorized("The bearer token is empty: send Authorization: Bearer <token> (is the variable holding it set?)")
	}
	return strings.TrimSpace(value), nil
}
