// Package ratelimit admits or refuses each authenticated request against its
// account's burst and daily limits, counted with DynamoDB conditional writes
// so that any number of instances together never admit more than the limit.
//
// Each account has one state item (RATE#<account> / STATE) holding the
// current fixed window (aligned to the epoch) and its count, the current UTC
// day and its count, the ids of revoked tokens, and the item's birth time,
// and per token that was used or given an end: the minute of its last use
// (lu_<token id>) and the instant its rotation grace period ends
// (xp_<token id>). A request is one conditional UpdateItem in the common
// case; the condition refuses revoked and expired tokens as well, so such a
// token costs the account nothing, and the same write records the token's
// last use. A window or day rollover that this instance has not yet seen
// costs one more write. The item carries a TTL (expiresAt) that is pushed
// StateLifetime past each use: an account idle for that long leaves nothing
// behind; see auth.Authenticator for why that is safe for revocations and
// expiries, and auth.Tokens.List for how last uses outlive it.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// Limits are the per-account limits.
type Limits struct {
	Burst  int
	Window time.Duration
	Daily  int
}

const day = 24 * time.Hour

// StateKey is where an account's admission state lives. It has its own
// partition so that a busy account's counter never shares throughput with
// the account's data.
func StateKey(accountID string) storage.Key {
	return storage.Key{PK: "RATE#" + accountID, SK: "STATE"}
}

// Attribute names of the state item.
const (
	attrWinStart = "winStart"
	attrWinCount = "winCount"
	attrDay      = "day"
	attrDayCount = "dayCount"
	attrRevoked  = "revoked"
	attrBornAt   = "bornAt"
)

// Per-token attributes of the state item: the name prefix, then the token id.
const (
	lastUsePrefix = "lu_" // epoch seconds of the minute of the token's last use
	expiryPrefix  = "xp_" // epoch milliseconds at which the token stops working
)

// StateLifetime is how long an account's state item outlives the account's
// last request (its TTL). It carries the last use of the account's tokens,
// which the portal shows, so it is kept well beyond the daily counter's day.
const StateLifetime = 400 * day

type state struct {
	WinStart int64    `dynamodbav:"winStart"`
	WinCount int      `dynamodbav:"winCount"`
	Day      int64    `dynamodbav:"day"`
	DayCount int      `dynamodbav:"dayCount"`
	Revoked  []string `dynamodbav:"revoked,stringset"`
	BornAt   int64    `dynamodbav:"bornAt"`
	// raw is the whole item, for the per-token attributes.
	raw map[string]types.AttributeValue
}

// refuses reports whether the state refuses tokenID at now: revoked, or its
// grace period over.
func (st *state) refuses(tokenID string, now time.Time) bool {
	for _, id := range st.Revoked {
		if id == tokenID {
			return true
		}
	}
	end := numberAttr(st.raw, expiryPrefix+tokenID)
	return end != 0 && now.UnixMilli() >= end
}

// Decision is the outcome of one admission.
type Decision struct {
	// Allowed is false when a limit is used up (see RetryAfter).
	Allowed bool
	// Revoked is true when the token has been revoked.
	Revoked bool
	// Counters after this request, for the X-RateLimit-* headers.
	Limits          Limits
	BurstRemaining  int
	DailyRemaining  int
	RetryAfter      time.Duration
	LimitedByDay    bool
	StateBornAtUnix int64 // state item birth, epoch milliseconds

	limitHeaders *[3]string // Limits formatted once by the limiter
}

// SetHeaders writes the public API's rate-limit headers. It assigns the
// canonical keys directly, from one backing array: h.Set would canonicalise
// each key and allocate each value on every request.
func (d Decision) SetHeaders(h http.Header) {
	limits := d.limitHeaders
	if limits == nil {
		limits = formatLimits(d.Limits)
	}
	v := []string{
		limits[0],
		strconv.Itoa(max(d.BurstRemaining, 0)),
		limits[1],
		limits[2],
		strconv.Itoa(max(d.DailyRemaining, 0)),
	}
	h["X-Ratelimit-Max"] = v[0:1:1]
	h["X-Ratelimit-Remaining"] = v[1:2:2]
	h["X-Ratelimit-Interval-Milliseconds"] = v[2:3:3]
	h["X-Ratelimit-Limit-Daily"] = v[3:4:4]
	h["X-Ratelimit-Daily-Remaining"] = v[4:5:5]
}

// formatLimits is the limits as header values: burst, window in
// milliseconds, daily.
func formatLimits(l Limits) *[3]string {
	return &[3]string{strconv.Itoa(l.Burst), strconv.FormatInt(l.Window.Milliseconds(), 10), strconv.Itoa(l.Daily)}
}

// Err is the 429 for a refused decision.
func (d Decision) Err() error {
	if d.Allowed {
		return nil
	}
	what := count(int64(d.Limits.Burst), "request") + " per " + d.Limits.Window.String()
	if d.LimitedByDay {
		what = count(int64(d.Limits.Daily), "request") + " per day"
	}
	secs := int64((d.RetryAfter + time.Second - 1) / time.Second)
	return &apierror.Error{
		Code:       apierror.CodeTooManyRequests,
		Message:    fmt.Sprintf("Too many requests: the account's limit of %s is used up; retry after %s", what, count(secs, "second")),
		RetryAfter: d.RetryAfter,
	}
}

// count is n and the noun, plural unless n is 1 ("1 second", "7 seconds").
func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

// Limiter admits requests. It is safe for concurrent use.
type Limiter struct {
	table  *storage.Table
	clock  clock.Clock
	limits Limits

	// seen remembers, per account, the latest window this instance wrote,
	// so that a rollover usually takes one write instead of two, and the
	// state item's key.
	seen sync.Map // account id -> *accountEntry
	// tokens holds, per token, the admission's attribute names (the fixed
	// ones and the token's own) and the token id as a condition value,
	// built once: the SDK only reads them.
	tokens      sync.Map // token id -> *tokenParts
	tokensCount atomic.Int64

	burstAV, dailyAV types.AttributeValue // the limits as condition values
	limitHeaders     *[3]string
	current          atomic.Pointer[windowAVs]
	minute           atomic.Pointer[minuteAV]
}

// New returns a limiter. Limits must be positive and the window must divide
// a day (config.Load checks this).
func New(table *storage.Table, c clock.Clock, limits Limits) *Limiter {
	return &Limiter{table: table, clock: c, limits: limits,
		burstAV: number(int64(limits.Burst)), dailyAV: number(int64(limits.Daily)), limitHeaders: formatLimits(limits)}
}

type variant int

const (
	sameWindow variant = iota // counters continue
	newWindow                 // window rolls over within the day
	newDay                    // day rolls over, or the item is new
)

// maxAttempts bounds the retries when concurrent instances race over a
// rollover, or a transaction holds the state item.
const maxAttempts = 5

// Admit counts one request of tokenID against accountID's limits.
func (l *Limiter) Admit(ctx context.Context, accountID, tokenID string) (Decision, error) {
	now := l.clock.Now()
	win := windowStart(now, l.limits.Window)
	dayIdx := now.Unix() / int64(day/time.Second)

	v := sameWindow
	entry := l.entry(accountID)
	if lastWin := entry.win.Load(); lastWin != 0 {
		switch {
		case lastWin/int64(day/time.Second) < dayIdx:
			v = newDay
		case lastWin < win:
			v = newWindow
		}
	}
	for attempt := 0; attempt < maxAttempts; attempt++ {
		out, err := l.update(ctx, entry.key, tokenID, v, win, dayIdx, now)
		if err == nil {
			entry.win.Store(win)
			return l.admitted(out), nil
		}
		if inTransaction(err) {
			// A revocation or rotation is writing the state item in a
			// transaction (AddRevocation, AddExpiry), which takes a few
			// milliseconds: DynamoDB refuses other writes to it meanwhile.
			select {
			case <-ctx.Done():
				return Decision{}, dynamo.Classify(ctx.Err())
			case <-time.After(time.Duration(attempt+1) * transactionPause):
			}
			continue
		}
		if !storage.IsConditionFailed(err) {
			return Decision{}, err
		}
		st, err := l.read(accountID, err)
		if err != nil {
			return Decision{}, err
		}
		if st == nil {
			v = newDay
			continue
		}
		if st.refuses(tokenID, now) {
			return Decision{Revoked: true, Limits: l.limits}, nil
		}
		// Another instance whose clock runs ahead may have moved the item
		// to a later window or day: count against that one.
		win, dayIdx = max(win, st.WinStart), max(dayIdx, st.Day)
		switch {
		case st.Day == dayIdx && st.DayCount >= l.limits.Daily:
			next := time.Unix((dayIdx+1)*int64(day/time.Second), 0)
			return l.refused(st, win, next.Sub(now), true), nil
		case st.Day < dayIdx:
			v = newDay
		case st.WinStart == win && st.WinCount >= l.limits.Burst:
			return l.refused(st, win, time.Unix(win, 0).Add(l.limits.Window).Sub(now), false), nil
		case st.WinStart < win:
			v = newWindow
		default:
			v = sameWindow
		}
	}
	return Decision{}, apierror.Unavailable(fmt.Errorf("rate limit state of %s: too much contention", accountID), time.Second)
}

// transactionPause is the growth of the pause before another attempt at an
// admission that met a transaction on the state item.
const transactionPause = 10 * time.Millisecond

// inTransaction reports whether a write failed because a transaction was
// writing the item at the same moment.
func inTransaction(err error) bool {
	var conflict *types.TransactionConflictException
	return errors.As(err, &conflict)
}

// The admission update of each variant, written once: building them with
// the expression builder on every request cost about 200 allocations, two
// thirds of a whole request's (tools/perf's benchmarks). Only the values
// change per request, and the two names of the token's own attributes (#lu,
// #xp), built once per token (see tokenParts). DynamoDB refuses names or
// values an expression does not use, so each variant lists exactly its own.
var admissionNames = map[string]string{
	"#exp": storage.AttrExpiresAt, "#born": attrBornAt, "#ws": attrWinStart, "#wc": attrWinCount,
	"#day": attrDay, "#dc": attrDayCount, "#rev": attrRevoked,
}

type admissionExpr struct {
	storage.CompiledUpdate
	burst, daily bool // whether :burst and :daily appear
}

// tokenUsable is every variant's condition on the token: not revoked, and
// not past the end of its rotation grace period.
const tokenUsable = " AND NOT contains(#rev, :tok) AND (attribute_not_exists(#xp) OR #xp > :now)"

var admissionExprs = [...]admissionExpr{
	sameWindow: {
		CompiledUpdate: storage.CompiledUpdate{
			Update:    "SET #exp = :exp, #born = if_not_exists(#born, :now), #wc = #wc + :one, #dc = #dc + :one, #lu = :min",
			Condition: "#ws = :win AND #day = :day AND #wc < :burst AND #dc < :daily" + tokenUsable,
		},
		burst: true, daily: true,
	},
	newWindow: {
		CompiledUpdate: storage.CompiledUpdate{
			Update:    "SET #exp = :exp, #born = if_not_exists(#born, :now), #ws = :win, #wc = :one, #dc = #dc + :one, #lu = :min",
			Condition: "#ws < :win AND #day = :day AND #dc < :daily" + tokenUsable,
		},
		daily: true,
	},
	newDay: {
		CompiledUpdate: storage.CompiledUpdate{
			Update:    "SET #exp = :exp, #born = if_not_exists(#born, :now), #ws = :win, #wc = :one, #day = :day, #dc = :one, #lu = :min",
			Condition: "(attribute_not_exists(#day) OR #day < :day)" + tokenUsable,
		},
	},
}

// maxTokenParts bounds the per-token parts kept; when full they are dropped
// and rebuilt on use.
const maxTokenParts = 10000

// tokenParts are the parts of a token's admission that never change: the
// attribute names (the fixed ones, and #lu and #xp naming the token's own)
// and the token id as the :tok value.
type tokenParts struct {
	names map[string]string
	tok   types.AttributeValue
}

// tokenParts returns the admission's parts for tokenID.
func (l *Limiter) tokenParts(tokenID string) *tokenParts {
	if p, ok := l.tokens.Load(tokenID); ok {
		return p.(*tokenParts)
	}
	names := make(map[string]string, len(admissionNames)+2)
	for k, v := range admissionNames {
		names[k] = v
	}
	names["#lu"] = lastUsePrefix + tokenID
	names["#xp"] = expiryPrefix + tokenID
	p := &tokenParts{names: names, tok: &types.AttributeValueMemberS{Value: tokenID}}
	if l.tokensCount.Add(1) > maxTokenParts {
		l.tokens.Clear()
		l.tokensCount.Store(1)
	}
	l.tokens.Store(tokenID, p)
	return p
}

var one = &types.AttributeValueMemberN{Value: "1"}

// windowAVs are the condition values of one window, shared by its requests
// (the SDK only reads them).
type windowAVs struct {
	winStart, dayIdx int64
	win, day, exp    types.AttributeValue
}

func (l *Limiter) windowValues(win, dayIdx int64) *windowAVs {
	if c := l.current.Load(); c != nil && c.winStart == win && c.dayIdx == dayIdx {
		return c
	}
	c := &windowAVs{winStart: win, dayIdx: dayIdx, win: number(win), day: number(dayIdx),
		exp: number((dayIdx+1)*int64(day/time.Second) + int64(StateLifetime/time.Second))} // at least StateLifetime after this request
	l.current.Store(c)
	return c
}

// minuteAV is the :min value (a token's last use, to the minute), shared by
// the minute's requests.
type minuteAV struct {
	start int64
	av    types.AttributeValue
}

func (l *Limiter) minuteValue(now time.Time) types.AttributeValue {
	start := now.Unix() - now.Unix()%60
	if m := l.minute.Load(); m != nil && m.start == start {
		return m.av
	}
	m := &minuteAV{start: start, av: number(start)}
	l.minute.Store(m)
	return m.av
}

func number(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// accountEntry is what the limiter keeps per account.
type accountEntry struct {
	// key is the state item's key, built once: requests share it (the SDK
	// only reads it).
	key map[string]types.AttributeValue
	win atomic.Int64 // latest window this instance wrote; 0: none yet
}

func (l *Limiter) entry(accountID string) *accountEntry {
	if e, ok := l.seen.Load(accountID); ok {
		return e.(*accountEntry)
	}
	e, _ := l.seen.LoadOrStore(accountID, &accountEntry{key: StateKey(accountID).AV()})
	return e.(*accountEntry)
}

func (l *Limiter) update(ctx context.Context, key map[string]types.AttributeValue, tokenID string, v variant, win, dayIdx int64, now time.Time) (map[string]types.AttributeValue, error) {
	e := &admissionExprs[v]
	wv := l.windowValues(win, dayIdx)
	tp := l.tokenParts(tokenID)
	values := map[string]types.AttributeValue{
		":exp": wv.exp,
		":now": number(now.UnixMilli()),
		":one": one,
		":win": wv.win,
		":day": wv.day,
		":tok": tp.tok,
		":min": l.minuteValue(now),
	}
	if e.burst {
		values[":burst"] = l.burstAV
	}
	if e.daily {
		values[":daily"] = l.dailyAV
	}
	return l.table.ApplyCompiled(ctx, key, &e.CompiledUpdate, tp.names, values)
}

// read returns the state a failed condition found: DynamoDB returns it
// with the failure (ReturnValuesOnConditionCheckFailure), so a refusal costs
// no read. nil when there was no state item.
func (l *Limiter) read(accountID string, condErr error) (*state, error) {
	return storage.FailedConditionItem[state](condErr, StateKey(accountID))
}

// UnmarshalDynamoDBAttributeValue decodes the state and keeps the whole item,
// whose per-token attributes (last use, expiry) have names of their own.
func (st *state) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	m, ok := av.(*types.AttributeValueMemberM)
	if !ok {
		return fmt.Errorf("decode rate state: not a map")
	}
	type fields state // the same fields, without this method
	var f fields
	if err := attributevalue.UnmarshalMap(m.Value, &f); err != nil {
		return fmt.Errorf("decode rate state: %w", err)
	}
	*st = state(f)
	st.raw = m.Value
	return nil
}

func (l *Limiter) admitted(attrs map[string]types.AttributeValue) Decision {
	// Read directly rather than with attributevalue: this runs on every
	// request. A missing bornAt stays 0, which forces a token re-check.
	return Decision{
		Allowed:         true,
		Limits:          l.limits,
		limitHeaders:    l.limitHeaders,
		BurstRemaining:  l.limits.Burst - int(numberAttr(attrs, attrWinCount)),
		DailyRemaining:  l.limits.Daily - int(numberAttr(attrs, attrDayCount)),
		StateBornAtUnix: numberAttr(attrs, attrBornAt),
	}
}

func numberAttr(attrs map[string]types.AttributeValue, name string) int64 {
	n, ok := attrs[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0
	}
	v, _ := strconv.ParseInt(n.Value, 10, 64)
	return v
}

func (l *Limiter) refused(st *state, win int64, retry time.Duration, byDay bool) Decision {
	d := Decision{Limits: l.limits, RetryAfter: max(retry, time.Second), LimitedByDay: byDay}
	if st.WinStart == win {
		d.BurstRemaining = l.limits.Burst - st.WinCount
	} else {
		d.BurstRemaining = l.limits.Burst
	}
	d.DailyRemaining = l.limits.Daily - st.DayCount
	if byDay {
		d.BurstRemaining = 0
	}
	return d
}

// AddRevocation adds to tx the record of the revocation of tokenIDs (one or
// more tokens of the account) in the account's state item: the ids join the
// revoked list, so that each token's next admission fails on every
// instance, warm caches included, and the tokens' own attributes go (the
// caller keeps their last use; see LastUses). It is one update of the state
// item however many tokens it names: a transaction may write an item only
// once. Made in the transaction that revokes the tokens, the record exists
// exactly when the revocation does.
func (l *Limiter) AddRevocation(tx *storage.Tx, accountID string, tokenIDs ...string) *storage.Tx {
	upd := expression.Add(expression.Name(attrRevoked), expression.Value(&types.AttributeValueMemberSS{Value: tokenIDs}))
	for _, id := range tokenIDs {
		upd = upd.Remove(expression.Name(lastUsePrefix + id)).Remove(expression.Name(expiryPrefix + id))
	}
	return tx.Update(StateKey(accountID), l.withLifetime(upd), nil)
}

// AddExpiry adds to tx the record that tokenID stops working at end, so that
// from then on its admission fails on every instance, warm caches included.
func (l *Limiter) AddExpiry(tx *storage.Tx, accountID, tokenID string, end time.Time) *storage.Tx {
	upd := expression.Set(expression.Name(expiryPrefix+tokenID), expression.Value(end.UnixMilli()))
	return tx.Update(StateKey(accountID), l.withLifetime(upd), nil)
}

// withLifetime gives the state item a TTL when it has none: a record's update
// creates the item of an account that has none (idle, or deleted by its
// TTL), and such an item must not outlive the account's requests either. It
// gets a birth time at its first admission, which makes every instance
// re-read its cached tokens (auth.Session.Confirm).
func (l *Limiter) withLifetime(upd expression.UpdateBuilder) expression.UpdateBuilder {
	exp := expression.Name(storage.AttrExpiresAt)
	return upd.Set(exp, exp.IfNotExists(expression.Value(l.clock.Now().Add(StateLifetime).Unix())))
}

// LastUses returns, per token id, the minute of the token's last request as
// the account's state item recorded it (empty when the account has none).
func (l *Limiter) LastUses(ctx context.Context, accountID string) (map[string]time.Time, error) {
	st, err := storage.Get[state](ctx, l.table, StateKey(accountID))
	if err != nil {
		return nil, err
	}
	uses := map[string]time.Time{}
	if st == nil {
		return uses, nil
	}
	for name := range st.raw {
		if tokenID, ok := strings.CutPrefix(name, lastUsePrefix); ok {
			uses[tokenID] = time.Unix(numberAttr(st.raw, name), 0).UTC()
		}
	}
	return uses, nil
}

func windowStart(t time.Time, window time.Duration) int64 {
	secs := int64(window / time.Second)
	return t.Unix() - t.Unix()%secs
}
