package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// Sign-in throttling: an e-mail address that fails FailureLimit times
// within FailureWindow is locked for LockDuration (known and unknown
// addresses alike, so a lock tells nothing about which exist); one client
// address may try AttemptLimit sign-ins and invite redemptions per
// AttemptWindow.
const (
	FailureLimit  = 5
	FailureWindow = 15 * time.Minute
	LockDuration  = 15 * time.Minute
	AttemptLimit  = 30
	AttemptWindow = 15 * time.Minute
)

// Throttle items, one per e-mail address (hashed: the key says nothing)
// and one per client address; both expire by TTL.
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
	LockedUntil int64 `dynamodbav:"lockedUntil,omitempty"` // epoch ms
	ExpiresAt   int64 `dynamodbav:"expiresAt"`             // TTL, epoch s
}

// count adds one to the fixed window counter at key and returns the count
// in the current window: one conditional write, two when the window rolls
// over under another writer.
func (s *Service) count(ctx context.Context, key storage.Key, window time.Duration, now time.Time) (int, error) {
	ws, c := expression.Name("windowStart"), expression.Name("count")
	ttl := expression.Value(now.Add(window + LockDuration).Unix())
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
			n, err := s.updateCount(ctx, key, v.upd, v.cond)
			if err == nil {
				return n, nil
			}
			if !storage.IsConditionFailed(err) {
				return 0, err
			}
			lastErr = err
		}
	}
	return 0, lastErr
}

func (s *Service) updateCount(ctx context.Context, key storage.Key, upd expression.UpdateBuilder, cond expression.ConditionBuilder) (int, error) {
	it, err := storage.UpdateReturning[throttleItem](ctx, s.table, key, upd, &cond)
	if err != nil {
		return 0, err
	}
	return it.Count, nil
}

// allowAttempt counts one sign-in or invite attempt from clientAddr and
// reports whether it is within AttemptLimit.
func (s *Service) allowAttempt(ctx context.Context, clientAddr string) (bool, error) {
	if clientAddr = strings.TrimSpace(clientAddr); clientAddr == "" {
		clientAddr = "unknown"
	}
	n, err := s.count(ctx, clientThrottleKey(clientAddr), AttemptWindow, s.clock.Now())
	return n <= AttemptLimit, err
}

// lockedUntil returns until when the address is locked (zero: it is not).
func (s *Service) lockedUntil(ctx context.Context, lowerEmail string) (time.Time, error) {
	it, err := storage.Get[throttleItem](ctx, s.table, emailThrottleKey(lowerEmail))
	if err != nil || it == nil || it.LockedUntil == 0 {
		return time.Time{}, err
	}
	until := time.UnixMilli(it.LockedUntil).UTC()
	if !s.clock.Now().Before(until) {
		return time.Time{}, nil
	}
	return until, nil
}

// recordFailure counts a failed sign-in for the address and locks it when
// the count reaches FailureLimit within FailureWindow.
func (s *Service) recordFailure(ctx context.Context, lowerEmail string) error {
	now := s.clock.Now()
	key := emailThrottleKey(lowerEmail)
	n, err := s.count(ctx, key, FailureWindow, now)
	if err != nil || n < FailureLimit {
		return err
	}
	until := now.Add(LockDuration)
	upd := expression.Set(expression.Name("lockedUntil"), expression.Value(until.UnixMilli())).
		Set(expression.Name(storage.AttrExpiresAt), expression.Value(until.Add(FailureWindow).Unix()))
	return s.table.Update(ctx, key, upd, nil)
}

// clearFailures forgets the address's failures after a successful sign-in.
func (s *Service) clearFailures(ctx context.Context, lowerEmail string) error {
	return s.table.Delete(ctx, emailThrottleKey(lowerEmail), nil)
}
