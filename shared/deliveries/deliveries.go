// Package deliveries is the delivery of events to their receivers: a
// marketplace app, or an account's own webhook endpoint (Receiver). An
// event reaches each receiver that takes it as one delivery (FanOut), kept
// in the receiver's partition: pending while it is tried, then delivered or
// failed (State). An attempt is claimed before it is made (Claim, or a new
// delivery already claimed by its maker) so that two deliverers never send
// it twice, and its result recorded (Record) on the schedule's terms: one
// backoff, one give-up (schedule.go). Pending deliveries sit in the due
// index (due.go) until they end; an ended one can be asked for again
// (Redeliver). An attempt is signed (Signer).
//
// The deliverer (package webhooks) makes the attempts; the portal, the CLI
// and the stores of apps and endpoints list and redeliver through here.
package deliveries

import (
	"context"
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// State is where a delivery stands.
type State string

// A delivery's states: pending until it ends, delivered or failed.
const (
	// Pending: not yet delivered, and tried again after each failure.
	Pending State = "pending"
	// Delivered: a receiver's 2xx answered an attempt.
	Delivered State = "delivered"
	// Failed: its attempts failed for GiveUp, or its endpoint was removed
	// or disabled; a redelivery makes it pending again.
	Failed State = "failed"
	// Unrouted is an event's state (EventIn) when no receiver took it: it
	// has no delivery.
	Unrouted State = "unrouted"
)

// States are a delivery's states, as its listings filter them.
var States = []State{Pending, Delivered, Failed}

// EventStates are an event's delivery states over all its receivers, as GET
// /events and platformctl events list filter them (EventIn).
var EventStates = []State{Pending, Delivered, Failed, Unrouted}

// Strings are states as their names, in their order (for a usage line, a
// check of a query value).
func Strings(states []State) []string {
	out := make([]string, len(states))
	for i, s := range states {
		out[i] = string(s)
	}
	return out
}

// Delivery is one event's delivery to one receiver, with its attempts.
type Delivery struct {
	// ID is the event's webhookId.
	ID string `dynamodbav:"eventId" json:"webhookId"`
	// AppID is the app receiving it; "" for an account's endpoint.
	AppID string `dynamodbav:"appId" json:"appId,omitempty"`
	// EndpointID is the account's endpoint receiving it; "" for an app.
	EndpointID string `dynamodbav:"endpointId,omitempty" json:"endpointId,omitempty"`
	// AccountID is the endpoint's account, "" for an app.
	AccountID string `dynamodbav:"accountId,omitempty" json:"-"`
	Type      string `dynamodbav:"type" json:"type"`
	// URL is where an app's delivery is posted; an endpoint's goes to the
	// endpoint's URL as it is at each attempt.
	URL string `dynamodbav:"url" json:"url"`
	// Body is the JSON body exactly as it is signed and sent.
	Body      string `dynamodbav:"body" json:"-"`
	CreatedAt string `dynamodbav:"createdAt" json:"createdAt"`
	Status    State  `dynamodbav:"status" json:"status"`
	// NextAt is the next attempt's time while pending.
	NextAt   string    `dynamodbav:"nextAttemptAt,omitempty" json:"nextAttemptAt,omitempty"`
	Attempts []Attempt `dynamodbav:"attempts" json:"attempts"`
	// Source is the partition of the event delivered (its sort key is the
	// delivery's), whose delivery counts it keeps (EventIn). Deliveries of
	// INSTALL and UNINSTALL written before those were events have none.
	Source string `dynamodbav:"source,omitempty" json:"-"`
	// RetryFrom is when a redelivery asked for it again: its GiveUp of
	// retries counts from then, not from CreatedAt.
	RetryFrom string `dynamodbav:"retryFrom,omitempty" json:"redeliveredAt,omitempty"`
	// LeaseUntil is when the deliverer that claimed the current attempt
	// gives it up (Claim).
	LeaseUntil string `dynamodbav:"leaseUntil,omitempty" json:"-"`
}

// Attempt is one attempt's result: the receiver's status, or the error.
type Attempt struct {
	At     string `dynamodbav:"at" json:"at"`
	Status int    `dynamodbav:"status,omitempty" json:"status,omitempty"`
	Error  string `dynamodbav:"error,omitempty" json:"error,omitempty"`
	// RetryAfter is the wait, in seconds, a 429 or 503 asked for
	// (Retry-After).
	RetryAfter int `dynamodbav:"retryAfter,omitempty" json:"retryAfter,omitempty"`
}

// Delivered reports whether the attempt delivered: a 2xx answer.
func (a Attempt) Delivered() bool { return a.Status >= 200 && a.Status < 300 }

// The attributes of a delivery item that conditions and updates name, as
// Delivery's tags spell them (a test holds them together).
const (
	attrEventID   = "eventId"
	attrCreatedAt = "createdAt"
	attrStatus    = "status"
	attrNextAt    = "nextAttemptAt"
	attrAttempts  = "attempts"
	attrRetryFrom = "retryFrom"
	attrLease     = "leaseUntil"
)

// Item is a delivery as stored: in its receiver's partition (PK), in the
// due index while pending.
type Item struct {
	storage.Key
	// GSI1PK and GSI1SK place a pending delivery in the due index (duePK,
	// dueSK); an ended one has neither.
	GSI1PK string `dynamodbav:"GSI1PK,omitempty"`
	GSI1SK string `dynamodbav:"GSI1SK,omitempty"`
	Delivery
	// ExpiresAt is the TTL of an ended delivery: Lifetime after its end.
	ExpiresAt int64 `dynamodbav:"expiresAt,omitempty"`
}

// PK is the partition of a receiver's deliveries (an app's or an account
// endpoint's id), oldest first.
func PK(receiverID string) string { return partitionPrefix + receiverID }

// partitionPrefix begins every receiver's partition.
const partitionPrefix = "WEBHOOKS#"

// sortPrefix begins every delivery's sort key: the event's; sortEnd sorts
// after every one.
const (
	sortPrefix = "EVENT#"
	sortEnd    = "EVENT$"
)

// ErrBadCursor answers a cursor Page did not give.
var ErrBadCursor = errors.New("not a cursor of this listing")

// Page returns at most limit of the receiver's deliveries (those in state
// when it is not ""), newest first, older than before (the cursor a page
// gave; "" for the newest), and the cursor of the next page ("" when there
// is none).
func Page(ctx context.Context, table *storage.Table, receiverID string, state State, limit int32, before string) ([]Delivery, string, error) {
	pk := PK(receiverID)
	key := storage.PartitionPrefix(pk, sortPrefix)
	if before != "" {
		if !strings.HasPrefix(before, sortPrefix) || len(before) > 80 {
			return nil, "", ErrBadCursor
		}
		key = expression.Key(storage.AttrPK).Equal(expression.Value(pk)).
			And(expression.Key(storage.AttrSK).Between(expression.Value(sortPrefix), expression.Value(before)))
	}
	q := storage.Query{Key: key, Descending: true}
	if state != "" {
		f := expression.Name(attrStatus).Equal(expression.Value(state))
		q.Filter = &f
	}
	var (
		out    []Delivery
		last   string
		cursor storage.Cursor
	)
	// A filter may leave a page short: read on, a few pages at most.
	for range 10 {
		items, next, err := storage.QueryPage[Item](ctx, table, q, limit, cursor)
		if err != nil {
			return nil, "", err
		}
		for _, it := range items {
			if it.SK == before || int32(len(out)) == limit {
				continue
			}
			out, last = append(out, it.Delivery), it.SK
		}
		if next == nil {
			return out, "", nil
		}
		if int32(len(out)) == limit {
			break
		}
		cursor = next
	}
	return out, last, nil
}
