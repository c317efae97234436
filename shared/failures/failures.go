// Package failures keeps, for each account, the API requests of the last
// seven days that failed, so that the account's admins can read in the
// portal why an integration's calls fail without asking support. The
// request pipeline writes them (pipeline.Options.Failures); the portal
// reads them. What is kept and what is not: docs/portal.md.
package failures

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// Retention is how long a failure is kept (the items' TTL) and listed.
const Retention = 7 * 24 * time.Hour

// MaxMessage bounds the message kept, in bytes: the answer's message,
// clipped at a character's end, so that a failure's item stays under 1 KB
// (one write unit) whatever the message.
const MaxMessage = 400

// Failure is one failed request: what the client sent it to and what it
// was answered. Never a body, a header or a token's value.
type Failure struct {
	At        string `dynamodbav:"at"`
	Method    string `dynamodbav:"method"`
	Route     string `dynamodbav:"route"` // the operation's path template, "" when none was reached
	Status    int    `dynamodbav:"status"`
	Message   string `dynamodbav:"message"`
	TokenID   string `dynamodbav:"tokenId"`
	RequestID string `dynamodbav:"requestId"`
}

type failureItem struct {
	storage.Key
	Failure
	ExpiresAt int64 `dynamodbav:"expiresAt"`
}

// HourCount is the number of 429 answers an account's requests got in one
// hour (Hour: "2006-01-02T15", UTC).
type HourCount struct {
	Hour  string `dynamodbav:"hour"`
	Count int    `dynamodbav:"count"`
}

type countItem struct {
	storage.Key
	HourCount
}

// The sort keys, in the account's partition. A failure's sort key begins
// with its time (newest first when read backwards) and ends with its
// request id, which no other request has: one item per failure, never
// written over.
const (
	failurePrefix = "FAILURE#"
	countPrefix   = "FAILURE429#"
	hourLayout    = "2006-01-02T15"
)

func failureKey(accountID string, at time.Time, requestID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: failurePrefix + clock.Timestamp(at) + "#" + requestID}
}

func countKey(accountID string, hour time.Time) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: countPrefix + hour.UTC().Format(hourLayout)}
}

// Store reads and writes an account's failures.
type Store struct {
	table *storage.Table
	clock clock.Clock
}

// New returns the store on table. The pipeline's writes go through a table
// whose writes do not wait for admission: a refused request is recorded
// too.
func New(table *storage.Table, clk clock.Clock) *Store { return &Store{table: table, clock: clk} }

// Record keeps f (its At is set here) for Retention: one PutItem.
func (s *Store) Record(ctx context.Context, accountID string, f Failure) error {
	now := s.clock.Now()
	f.At = clock.Timestamp(now)
	f.Message = clipMessage(maskPasted(f.Message))
	return s.table.Put(ctx, failureItem{
		Key:       failureKey(accountID, now, f.RequestID),
		Failure:   f,
		ExpiresAt: now.Add(Retention).Unix(),
	}, nil)
}

// CountRateLimited counts one 429 answer in its hour: one UpdateItem,
// however many 429s a burst gets.
func (s *Store) CountRateLimited(ctx context.Context, accountID string) error {
	hour := s.clock.Now().UTC().Truncate(time.Hour)
	update := expression.Add(expression.Name("count"), expression.Value(1)).
		Set(expression.Name("hour"), expression.Value(hour.Format(hourLayout))).
		Set(expression.Name(storage.AttrExpiresAt), expression.Value(hour.Add(Retention+time.Hour).Unix()))
	return s.table.Update(ctx, countKey(accountID, hour), update, nil)
}

// Filter narrows a listing: Status is "" (any), "4xx", "5xx" or one status
// code; TokenID "" (any) or one token's id.
type Filter struct {
	Status  string
	TokenID string
}

// Valid reports whether the filter's status is one the listing takes.
func (f Filter) Valid() bool {
	switch f.Status {
	case "", "4xx", "5xx":
		return true
	}
	n, err := strconv.Atoi(f.Status)
	return err == nil && n >= 400 && n <= 599 && len(f.Status) == 3
}

func (f Filter) condition() *expression.ConditionBuilder {
	var conds []expression.ConditionBuilder
	status := expression.Name("status")
	switch f.Status {
	case "":
	case "4xx":
		conds = append(conds, status.Between(expression.Value(400), expression.Value(499)))
	case "5xx":
		conds = append(conds, status.Between(expression.Value(500), expression.Value(599)))
	default:
		n, _ := strconv.Atoi(f.Status)
		conds = append(conds, status.Equal(expression.Value(n)))
	}
	if f.TokenID != "" {
		conds = append(conds, expression.Name("tokenId").Equal(expression.Value(f.TokenID)))
	}
	switch len(conds) {
	case 0:
		return nil
	case 1:
		return &conds[0]
	default:
		c := expression.And(conds[0], conds[1])
		return &c
	}
}

// maxReads bounds the queries of one page: a filter that matches little of
// a long week answers with what it found and where to go on.
const maxReads = 8

// List returns a page of the account's failures of the last Retention,
// newest first, that pass f: at most limit, after the one cursor names
// ("" for the newest), and the cursor of the next page ("" when no older
// failure is left). A cursor is checked (ValidCursor) before it becomes a
// key.
func (s *Store) List(ctx context.Context, accountID string, f Filter, cursor string, limit int) ([]Failure, string, error) {
	pk := storage.AccountPK(accountID)
	oldest := failurePrefix + clock.Timestamp(s.clock.Now().Add(-Retention))
	q := storage.Query{
		Key: expression.Key(storage.AttrPK).Equal(expression.Value(pk)).
			And(expression.Key(storage.AttrSK).Between(expression.Value(oldest), expression.Value(failurePrefix+"~"))),
		Filter:     f.condition(),
		Descending: true,
	}
	var start storage.Cursor
	if cursor != "" {
		start = storage.Key{PK: pk, SK: failurePrefix + cursor}.AV()
	}
	var out []Failure
	for range maxReads {
		items, next, err := storage.QueryPage[failureItem](ctx, s.table, q, int32(limit+1-len(out)), start)
		if err != nil {
			return nil, "", err
		}
		for _, it := range items {
			out = append(out, it.Failure)
			if len(out) > limit {
				last := out[limit-1]
				return out[:limit], last.At + "#" + last.RequestID, nil
			}
		}
		if next == nil {
			return out, "", nil
		}
		start = next
	}
	// The reads' bound is reached: the next page starts where they ended.
	var sk string
	if v, ok := start[storage.AttrSK].(*types.AttributeValueMemberS); ok {
		sk = v.Value
	}
	return out, strings.TrimPrefix(sk, failurePrefix), nil
}

// RateLimited returns the account's 429 counts of the last Retention, by
// hour, newest first.
func (s *Store) RateLimited(ctx context.Context, accountID string) ([]HourCount, error) {
	oldest := countPrefix + s.clock.Now().UTC().Add(-Retention).Format(hourLayout)
	items, err := storage.QueryAll[countItem](ctx, s.table, storage.Query{
		Key: expression.Key(storage.AttrPK).Equal(expression.Value(storage.AccountPK(accountID))).
			And(expression.Key(storage.AttrSK).Between(expression.Value(oldest), expression.Value(countPrefix+"~"))),
		Descending: true,
	})
	if err != nil {
		return nil, err
	}
	out := make([]HourCount, len(items))
	for i, it := range items {
		out[i] = it.HourCount
	}
	return out, nil
}

// ValidCursor reports whether c can be a page's cursor: a timestamp and a
// request id, as List makes them, and nothing that could reach past the
// account's failures in its partition.
func ValidCursor(c string) bool {
	at, id, ok := strings.Cut(c, "#")
	if !ok || len(id) == 0 || len(id) > 64 {
		return false
	}
	if _, err := time.Parse(clock.TimestampLayout, at); err != nil || len(at) != len(clock.TimestampLayout) {
		return false
	}
	for _, r := range id {
		// A UUID, or API Gateway's request id (base64: '=' too).
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '=') {
			return false
		}
	}
	return true
}

// MaxWholeWord is the longest run of id characters (letters, digits, '_'
// and '-') a kept message holds whole: the platform's own ids are at most
// 24 characters (database ids; demo, token and request-free ids fewer).
// A longer one is what a client put in an id field or a value (a token
// pasted into contactId, another system's key), which every admin of the
// account would read here for 7 days: it is kept as its first
// KeptPrefix characters and "…", enough to recognise the mistake; a
// secret of this platform (bpt_, bpr_, bps_, bpc_) as its prefix alone.
// The answer itself, which only its sender reads, still names the value
// as sent.
const (
	MaxWholeWord = 24
	KeptPrefix   = 8
)

// secretPrefixes begin the platform's secrets (shared/auth,
// shared/marketplace): tokens, refresh tokens, client secrets and codes.
var secretPrefixes = []string{"bpt_", "bpr_", "bps_", "bpc_"}

// maskPasted shortens every run of id characters longer than MaxWholeWord
// (see there).
func maskPasted(m string) string {
	var b strings.Builder
	for i := 0; i < len(m); {
		j := i
		for j < len(m) && isIDChar(m[j]) {
			j++
		}
		if j == i {
			b.WriteByte(m[i])
			i++
			continue
		}
		word := m[i:j]
		if len(word) > MaxWholeWord {
			keep := word[:KeptPrefix]
			for _, p := range secretPrefixes {
				if strings.HasPrefix(strings.ToLower(word), p) {
					keep = word[:len(p)]
				}
			}
			word = keep + "…"
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}

func isIDChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// clipMessage keeps at most MaxMessage bytes of a message, ending with
// "…" when it is clipped.
func clipMessage(m string) string {
	if len(m) <= MaxMessage {
		return m
	}
	cut := MaxMessage - len("…")
	for cut > 0 && !utf8.RuneStart(m[cut]) {
		cut--
	}
	return m[:cut] + "…"
}
