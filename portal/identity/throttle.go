package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
)

// Sign-in throttling (docs/portal.md, "Lockout and throttling").
//
// Failures are counted per address and source (the client address)
// together: FailureLimit failures within FailureWindow lock that pair for
// LockDuration, so a stranger's failures lock the stranger out, not the
// owner signing in from their own network. An address failing from many
// sources is slowed rather than walled: past SpreadFailureLimit failures
// from all sources within SpreadWindow, each failure makes the address's
// next sign-in wait, twice as long each time, from FirstDelay up to
// MaxDelay. Known and unknown addresses are throttled alike, so a refusal
// tells nothing about which exist. One source may also try AttemptLimit
// sign-ins and invite redemptions per AttemptWindow, whatever the address.
const (
	FailureLimit       = 5
	FailureWindow      = 15 * time.Minute
	LockDuration       = 15 * time.Minute
	SpreadFailureLimit = 10
	SpreadWindow       = time.Hour
	FirstDelay         = time.Second
	MaxDelay           = 5 * time.Minute
	AttemptLimit       = 30
	AttemptWindow      = 15 * time.Minute
)

// Throttle items, each expiring by TTL: one per address and source, one per
// address, both keyed by a hash (the key says nothing), and one per source.
func pairThrottleKey(lowerEmail, clientAddr string) storage.Key {
	sum := sha256.Sum256([]byte(lowerEmail + "\x00" + clientAddr))
	return storage.Key{PK: "PTHROTTLE#pair#" + hex.EncodeToString(sum[:]), SK: "THROTTLE"}
}

func emailThrottleKey(lowerEmail string) storage.Key {
	sum := sha256.Sum256([]byte(lowerEmail))
	return storage.Key{PK: "PTHROTTLE#email#" + hex.EncodeToString(sum[:]), SK: "THROTTLE"}
}

func clientThrottleKey(clientAddr string) storage.Key {
	return storage.Key{PK: "PTHROTTLE#client#" + clientAddr, SK: "THROTTLE"}
}

type throttleItem struct {
	storage.Key
	WindowStart int64 `dynamodbav:"windowStart"` // epoch ms
	Count       int   `dynamodbav:"count"`
	LockedUntil int64 `dynamodbav:"lockedUntil,omitempty"` // epoch ms: the pair's lock
	NotBefore   int64 `dynamodbav:"notBefore,omitempty"`   // epoch ms: the address's delay
	ExpiresAt   int64 `dynamodbav:"expiresAt"`             // TTL, epoch s
}

// count adds one to the fixed window counter at key and returns it as of
// the current window: one conditional write, two when the window rolls
// over under another writer. The item lives past the window by keep.
func (s *Service) count(ctx context.Context, key storage.Key, window, keep time.Duration, now time.Time) (*throttleItem, error) {
	ws, c := expression.Name("windowStart"), expression.Name("count")
	ttl := expression.Value(now.Add(window + keep).Unix())
	cutoff := expression.Value(now.Add(-window).UnixMilli())
	same := expression.Set(c, c.Plus(expression.Value(1))).Set(expression.Name(storage.AttrExpiresAt), ttl)
	sameCond := ws.GreaterThan(cutoff)
	fresh := expression.Set(ws, expression.Value(now.UnixMilli())).Set(c, expression.Value(1)).Set(expression.Name(storage.AttrExpiresAt), ttl)
	freshCond := expression.Or(expression.AttributeNotExists(ws), ws.LessThanEqual(cutoff))
	var lastErr error
	for range 3 {
		for _, v := range []struct {
			upd  expression.UpdateBuilder
			cond expression.ConditionBuilder
		}{{same, sameCond}, {fresh, freshCond}} {
			it, err := storage.UpdateReturning[throttleItem](ctx, s.table, key, v.upd, &v.cond)
			if err == nil {
				return it, nil
			}
			if !storage.IsConditionFailed(err) {
				return nil, err
			}
			lastErr = err
		}
	}
	return nil, lastErr
}

// hold is a refusal of sign-ins until a time: a 429 whose Retry-After and
// page say how long.
type hold struct {
	until  time.Time
	reason string // the page's sentence: %s for the end (UTC), then %s for how long
}

// refusal is the hold as the sign-in's answer at now.
func (h hold) refusal(now time.Time) *SignInError {
	wait := h.until.Sub(now)
	return &SignInError{Message: fmt.Sprintf(h.reason, h.until.UTC().Format("15:04:05"), waitInWords(wait)), Throttled: true, RetryAfter: wait}
}

// waitInWords says how long a wait is, rounded up: "8 seconds", "1 minute".
func waitInWords(d time.Duration) string {
	unit, n := "second", int((d+time.Second-1)/time.Second)
	if n > 90 {
		unit, n = "minute", int((d+time.Minute-1)/time.Minute)
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// allowAttempt counts one sign-in or invite attempt from clientAddr; past
// AttemptLimit in the window it returns the hold until the window ends.
func (s *Service) allowAttempt(ctx context.Context, clientAddr, what string) (*hold, error) {
	now := s.clock.Now()
	it, err := s.count(ctx, clientThrottleKey(sourceOf(clientAddr)), AttemptWindow, 0, now)
	if err != nil || it.Count <= AttemptLimit {
		return nil, err
	}
	return &hold{until: time.UnixMilli(it.WindowStart).Add(AttemptWindow),
		reason: "Too many " + what + " attempts from your network. Try again at %s UTC (in %s)."}, nil
}

func sourceOf(clientAddr string) string {
	if clientAddr = strings.TrimSpace(clientAddr); clientAddr == "" {
		return "unknown"
	}
	return clientAddr
}

// heldBack returns the hold on a sign-in of the address from clientAddr:
// the pair's lock, else the address's delay; nil when there is none.
func (s *Service) heldBack(ctx context.Context, lowerEmail, clientAddr string) (*hold, error) {
	now := s.clock.Now()
	pair, err := storage.Get[throttleItem](ctx, s.table, pairThrottleKey(lowerEmail, sourceOf(clientAddr)))
	if err != nil {
		return nil, err
	}
	if pair != nil && now.Before(time.UnixMilli(pair.LockedUntil)) {
		return &hold{until: time.UnixMilli(pair.LockedUntil),
			reason: "Too many failed sign-ins for this email address from your network: it is locked until %s UTC (for %s). Try again then."}, nil
	}
	addr, err := storage.Get[throttleItem](ctx, s.table, emailThrottleKey(lowerEmail))
	if err != nil {
		return nil, err
	}
	if addr != nil && now.Before(time.UnixMilli(addr.NotBefore)) {
		return &hold{until: time.UnixMilli(addr.NotBefore),
			reason: "Sign-ins for this email address have failed many times from several networks, so each one must wait: try again at %s UTC (in %s)."}, nil
	}
	return nil, nil
}

// spreadDelay is the wait after the address's nth failure in SpreadWindow:
// none up to SpreadFailureLimit, then FirstDelay doubling up to MaxDelay.
func spreadDelay(n int) time.Duration {
	if n <= SpreadFailureLimit {
		return 0
	}
	d := FirstDelay
	for i := SpreadFailureLimit + 1; i < n && d < MaxDelay; i++ {
		d *= 2
	}
	return min(d, MaxDelay)
}

// recordFailure counts a failed sign-in for the address and source
// together, locking the pair at FailureLimit, and for the address, delaying
// its next sign-in past SpreadFailureLimit.
func (s *Service) recordFailure(ctx context.Context, lowerEmail, clientAddr string) error {
	now := s.clock.Now()
	metrics.RequestFrom(ctx).Count(metrics.PortalSignInFailures)
	pairKey := pairThrottleKey(lowerEmail, sourceOf(clientAddr))
	pair, err := s.count(ctx, pairKey, FailureWindow, LockDuration, now)
	if err != nil {
		return err
	}
	if pair.Count >= FailureLimit {
		metrics.RequestFrom(ctx).Count(metrics.PortalLockouts)
		until := now.Add(LockDuration)
		upd := expression.Set(expression.Name("lockedUntil"), expression.Value(until.UnixMilli())).
			Set(expression.Name(storage.AttrExpiresAt), expression.Value(until.Add(FailureWindow).Unix()))
		if err := s.table.Update(ctx, pairKey, upd, nil); err != nil {
			return err
		}
	}
	addrKey := emailThrottleKey(lowerEmail)
	addr, err := s.count(ctx, addrKey, SpreadWindow, MaxDelay, now)
	if err != nil {
		return err
	}
	if d := spreadDelay(addr.Count); d > 0 {
		// A later delay is never shortened by a concurrent earlier one.
		nb := expression.Name("notBefore")
		until := expression.Value(now.Add(d).UnixMilli())
		cond := expression.Or(expression.AttributeNotExists(nb), nb.LessThan(until))
		if err := s.table.Update(ctx, addrKey, expression.Set(nb, until), &cond); err != nil && !storage.IsConditionFailed(err) {
			return err
		}
	}
	return nil
}

// clearFailures forgets the pair's failures after a successful sign-in. The
// address's count stays until its window ends: a success from one network
// does not reset what other networks have tried.
func (s *Service) clearFailures(ctx context.Context, lowerEmail, clientAddr string) error {
	return s.table.Delete(ctx, pairThrottleKey(lowerEmail, sourceOf(clientAddr)), nil)
}
