package idempotency

import (
	"context"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// Store keeps the claims and answers of keyed requests.
type Store interface {
	// Claim takes c's key for c's request. When a live record (a claim
	// still running or a kept answer) holds the key, Claim takes nothing
	// and returns that record.
	Claim(ctx context.Context, c Claim) (*Record, error)
	// Complete replaces c's claim with the answer, kept until until.
	Complete(ctx context.Context, c Claim, answer Answer, until time.Time) error
	// Release removes c's claim, so that a retry runs.
	Release(ctx context.Context, c Claim) error
}

var _ Store = (*Records)(nil)

// Claim is one request's hold on a key.
type Claim struct {
	AccountID   string
	Key         string
	Fingerprint string
	// Owner is the request holding the claim (its request id).
	Owner string
	// At is when the claim is taken; Until is when it lapses if its request
	// never finishes (its process died).
	At, Until time.Time
}

// Record is what holds a key: a claim still running, or a kept answer.
type Record struct {
	Fingerprint string
	Running     bool
	Answer      Answer
}

// Answer is an answer as the handler wrote it.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Records is the Store on the table: one item per key in the account's
// partition, removed by the table's TTL once it lapses.
type Records struct {
	table *storage.Table
}

// NewRecords returns the Store on table. Pass the areas' gated table: a
// claim is a write, and must wait for the request's admission.
func NewRecords(table *storage.Table) *Records { return &Records{table: table} }

// RecordKey is where an account's record of key lives.
func RecordKey(accountID, key string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "IDEMPOTENCY#" + key}
}

// Attribute names the conditions use.
const (
	attrOwner = "owner"
	attrDone  = "done"
)

// recordItem is a Record as stored. ExpiresAt is the table's TTL attribute
// (storage.AttrExpiresAt): the claim's lapse while it runs, the end of
// keeping once done. TTL deletes late, so the claim condition treats a
// lapsed item as absent.
type recordItem struct {
	storage.Key
	Fingerprint string              `dynamodbav:"fingerprint"`
	Owner       string              `dynamodbav:"owner"`
	Done        bool                `dynamodbav:"done"`
	Status      int                 `dynamodbav:"status,omitempty"`
	Header      map[string][]string `dynamodbav:"header,omitempty"`
	Body        []byte              `dynamodbav:"body,omitempty"`
	ExpiresAt   int64               `dynamodbav:"expiresAt"`
}

func (it *recordItem) record() *Record {
	return &Record{
		Fingerprint: it.Fingerprint,
		Running:     !it.Done,
		Answer:      Answer{Status: it.Status, Header: it.Header, Body: it.Body},
	}
}

// Claim is one conditional put: no item at the key, or a lapsed one. On a
// failed condition, the record held comes with the failure, at no extra
// read.
func (s *Records) Claim(ctx context.Context, c Claim) (*Record, error) {
	key := RecordKey(c.AccountID, c.Key)
	free := expression.AttributeNotExists(expression.Name(storage.AttrPK)).
		Or(expression.Name(storage.AttrExpiresAt).LessThanEqual(expression.Value(c.At.Unix())))
	err := s.table.Put(ctx, recordItem{Key: key, Fingerprint: c.Fingerprint, Owner: c.Owner, ExpiresAt: c.Until.Unix()}, &free)
	if !storage.IsConditionFailed(err) {
		return nil, err
	}
	held, err := storage.FailedConditionItem[recordItem](err, key)
	if err != nil || held == nil {
		return nil, err
	}
	return held.record(), nil
}

// Complete puts the answer in place of the claim, if the claim is still c's.
func (s *Records) Complete(ctx context.Context, c Claim, a Answer, until time.Time) error {
	done := recordItem{
		Key:         RecordKey(c.AccountID, c.Key),
		Fingerprint: c.Fingerprint,
		Owner:       c.Owner,
		Done:        true,
		Status:      a.Status,
		Header:      a.Header,
		Body:        a.Body,
		ExpiresAt:   until.Unix(),
	}
	return s.table.Put(ctx, done, heldBy(c.Owner))
}

// Release deletes the claim, if it is still c's.
func (s *Records) Release(ctx context.Context, c Claim) error {
	return s.table.Delete(ctx, RecordKey(c.AccountID, c.Key), heldBy(c.Owner))
}

// heldBy is the condition "a running claim of owner": a claim that lapsed
// and was taken by another request is left to that request.
func heldBy(owner string) *expression.ConditionBuilder {
	c := expression.Name(attrOwner).Equal(expression.Value(owner)).
		And(expression.Name(attrDone).Equal(expression.Value(false)))
	return &c
}
