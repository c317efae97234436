package auth

import (
	"sync"
	"time"

	"github.com/bizplatform/api/shared/clock"
)

// UnknownTokenTTL is how long an instance remembers that a well-formed token
// matched no token.
//
// The checksum is public, so anyone can make up well-formed tokens, and
// before any account is known no rate limit applies: each would cost a
// DynamoDB read. Remembered, a made-up token sent again costs nothing until
// the TTL passes. Distinct made-up tokens still cost one read each: the API
// stage's throttling bounds them (docs/security.md).
//
// A token can only be seen as unknown before it exists if its value was
// chosen before it was created (Tokens.CreateWithValue: the documented demo
// tokens): a random token's value exists nowhere until Create returns, after
// its item is written. Creating a token forgets it at once on the instance
// that creates it; another instance (another Lambda instance, or a server
// beside platformctl) may answer 401 for it for at most this long.
const UnknownTokenTTL = 30 * time.Second

// maxUnknownTokens bounds the memory of unknown tokens (the positive cache
// has the same bound, maxCachedTokens); past it the oldest is forgotten
// first.
const maxUnknownTokens = 10000

// unknownTokens remembers the hashes of tokens that matched no token, each
// for UnknownTokenTTL. It is safe for concurrent use.
type unknownTokens struct {
	clock clock.Clock
	max   int

	mu      sync.Mutex
	entries map[string]unknownEntry
	// order holds the hashes in the order they were remembered (a ring of
	// at most max, oldest at next once full): with one TTL for all, the
	// oldest is also the first to expire.
	order []remembered
	next  int
	seq   uint64 // numbers the entries, to tell a hash's copies apart
	// forgets counts Forget calls, so that a lookup that read "absent"
	// before a token was created does not remember it after.
	forgets uint64
}

type unknownEntry struct {
	until time.Time // when it is forgotten
	seq   uint64
}

type remembered struct {
	hash string
	seq  uint64
}

func newUnknownTokens(c clock.Clock, max int) *unknownTokens {
	return &unknownTokens{clock: c, max: max, entries: map[string]unknownEntry{}}
}

// Has reports whether hash was found unknown less than UnknownTokenTTL ago.
func (u *unknownTokens) Has(hash string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	e, ok := u.entries[hash]
	if ok && !u.clock.Now().Before(e.until) {
		delete(u.entries, hash)
		return false
	}
	return ok
}

// Epoch is taken before reading a token: Remember ignores a result read
// before a later Forget.
func (u *unknownTokens) Epoch() uint64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.forgets
}

// Remember notes that hash matched no token when read at epoch.
func (u *unknownTokens) Remember(hash string, epoch uint64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if epoch != u.forgets {
		return // a token was created meanwhile: perhaps this one
	}
	u.seq++
	r := remembered{hash: hash, seq: u.seq}
	if len(u.order) < u.max {
		u.order = append(u.order, r)
	} else {
		oldest := u.order[u.next]
		if u.entries[oldest.hash].seq == oldest.seq { // not remembered again since
			delete(u.entries, oldest.hash)
		}
		u.order[u.next] = r
		u.next = (u.next + 1) % u.max
	}
	u.entries[hash] = unknownEntry{until: u.clock.Now().Add(UnknownTokenTTL), seq: u.seq}
}

// Forget drops hash (its token now exists).
func (u *unknownTokens) Forget(hash string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.entries, hash)
	u.forgets++
}
