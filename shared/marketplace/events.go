package marketplace

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Webhook event types (the public platform's).
const (
	EventInstall   = "INSTALL"
	EventUninstall = "UNINSTALL"
)

// Delivery states of an event.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// DueIndexPK is the sparse index (GSI1) of the events still to deliver,
// spread over DueShards partitions (DuePK); GSI1SK is the next attempt's
// time, then the event's key. An event leaves the index when it is
// delivered or failed. DueIndexPK itself is the one partition the index
// had before it was spread: still read (DuePKs), so that events pending in
// a table from before are delivered.
const DueIndexPK = "WEBHOOKS#DUE"

// DueShards is how many partitions the due index has: one partition takes
// about 1,000 writes a second, and each delivery writes it two or three
// times (made, each attempt, ended).
const DueShards = 8

// DuePK is the due index partition of the event at key, from its key's
// hash, so that the events of one busy app or account spread too.
func DuePK(key storage.Key) string {
	h := fnv.New32a()
	h.Write([]byte(key.PK))
	h.Write([]byte{0})
	h.Write([]byte(key.SK))
	return fmt.Sprintf("%s#%d", DueIndexPK, h.Sum32()%DueShards)
}

// DuePKs are every partition of the due index: the shards, then the one
// from before them.
func DuePKs() []string {
	out := make([]string, 0, DueShards+1)
	for n := range DueShards {
		out = append(out, fmt.Sprintf("%s#%d", DueIndexPK, n))
	}
	return append(out, DueIndexPK)
}

// EventLifetime is how long an event is kept after its delivery ends (its
// TTL), for `platformctl apps deliveries`.
const EventLifetime = 30 * 24 * time.Hour

// Event is one webhook event of an app, with its delivery.
type Event struct {
	ID    string `dynamodbav:"eventId" json:"webhookId"`
	AppID string `dynamodbav:"appId" json:"appId,omitempty"`
	// EndpointID is the account's own endpoint the event is for (package
	// endpoints); "" for an app's event.
	EndpointID string `dynamodbav:"endpointId,omitempty" json:"endpointId,omitempty"`
	// AccountID is the endpoint's account (its key's), "" for an app's.
	AccountID string `dynamodbav:"accountId,omitempty" json:"-"`
	Type      string `dynamodbav:"type" json:"type"`
	URL       string `dynamodbav:"url" json:"url"`
	// Body is the JSON body exactly as it is signed and sent.
	Body      string    `dynamodbav:"body" json:"-"`
	CreatedAt string    `dynamodbav:"createdAt" json:"createdAt"`
	Status    string    `dynamodbav:"status" json:"status"`
	NextAt    string    `dynamodbav:"nextAttemptAt,omitempty" json:"nextAttemptAt,omitempty"`
	Attempts  []Attempt `dynamodbav:"attempts" json:"attempts"`
	// Source is the partition of the account's event this delivers (its
	// sort key is the delivery's), whose delivery counts it keeps; "" for
	// INSTALL and UNINSTALL.
	Source string `dynamodbav:"source,omitempty" json:"-"`
	// RetryFrom is when a redelivery asked for the event again: its 3 days
	// of retries count from then, not from CreatedAt.
	RetryFrom string `dynamodbav:"retryFrom,omitempty" json:"redeliveredAt,omitempty"`
	// LeaseUntil is when the deliverer that claimed the current attempt
	// gives it up (see webhooks.Deliverer).
	LeaseUntil string `dynamodbav:"leaseUntil,omitempty" json:"-"`
}

// Attempt is one delivery attempt: the receiver's status, or the error.
type Attempt struct {
	At     string `dynamodbav:"at" json:"at"`
	Status int    `dynamodbav:"status,omitempty" json:"status,omitempty"`
	Error  string `dynamodbav:"error,omitempty" json:"error,omitempty"`
	// RetryAfter is the wait, in seconds, a 429 or 503 asked for
	// (Retry-After).
	RetryAfter int `dynamodbav:"retryAfter,omitempty" json:"retryAfter,omitempty"`
}

// EventItem is an event as stored: in its app's partition, in the due index
// while pending.
type EventItem struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK,omitempty"`
	GSI1SK string `dynamodbav:"GSI1SK,omitempty"`
	Event
	ExpiresAt int64 `dynamodbav:"expiresAt,omitempty"`
}

// EventsPK is the partition of an app's events, oldest first.
func EventsPK(appID string) string { return "WEBHOOKS#" + appID }

// DueSK is an event's place in the due index: its next attempt, then its
// key, so that the earliest come first.
func DueSK(next time.Time, key storage.Key) string { return clock.Timestamp(next) + "#" + key.SK }

// Pending is a new delivery of e, stored at key and due now; or, when
// leasedUntil is not zero, claimed until then by its maker, which makes
// the first attempt at once, and due then: should the maker die
// mid-attempt, another deliverer takes it up when the lease ends.
func Pending(key storage.Key, e Event, now, leasedUntil time.Time) EventItem {
	stamp := clock.Timestamp(now)
	due := now
	if !leasedUntil.IsZero() {
		due, e.LeaseUntil = leasedUntil, clock.Timestamp(leasedUntil)
	}
	e.CreatedAt, e.Status, e.NextAt = stamp, DeliveryPending, clock.Timestamp(due)
	if e.Attempts == nil {
		e.Attempts = []Attempt{}
	}
	return EventItem{Key: key, GSI1PK: DuePK(key), GSI1SK: DueSK(due, key), Event: e}
}

// payload is an INSTALL or UNINSTALL body, the public platform's fields.
type payload struct {
	Type                string `json:"type"`
	AppID               string `json:"appId"`
	VersionID           string `json:"versionId"`
	InstallType         string `json:"installType"`
	LocationID          string `json:"locationId,omitempty"`
	CompanyID           string `json:"companyId"`
	UserID              string `json:"userId,omitempty"`
	CompanyName         string `json:"companyName,omitempty"`
	IsWhitelabelCompany bool   `json:"isWhitelabelCompany"`
	Timestamp           string `json:"timestamp"`
	WebhookID           string `json:"webhookId"`
}

// addEvent adds to tx the event of typ for the app's install into
// accountID of companyID, when the app has a webhook URL: written in the
// transaction of the change it reports, it exists exactly when the change
// does.
func addEvent(tx *storage.Tx, app App, typ string, company companyRef, accountID, userID string, now time.Time) {
	if app.WebhookURL == "" {
		return
	}
	id := ids.Hex24()
	installType := UserLocation
	if accountID == "" {
		installType = UserCompany
	}
	// As JSON.stringify writes it (a company named "Hook & Sons" is not
	// escaped), so that the SDK's check of the signature holds.
	body, _ := events.Marshal(payload{ // plain strings and a bool: cannot fail
		Type: typ, AppID: app.ID, VersionID: app.ID, InstallType: installType, LocationID: accountID,
		CompanyID: company.ID, UserID: userID, CompanyName: company.Name,
		Timestamp: now.UTC().Format("2006-01-02T15:04:05.000Z"), WebhookID: id,
	})
	key := storage.Key{PK: EventsPK(app.ID), SK: "EVENT#" + clock.Timestamp(now) + "#" + id}
	tx.Put(Pending(key, Event{ID: id, AppID: app.ID, Type: typ, URL: app.WebhookURL, Body: string(body)}, now, time.Time{}), storage.ItemAbsent())
}

// companyRef is a company as events name it: its id and its name (the id
// when it has none).
type companyRef struct{ ID, Name string }

// CompanyName is the company's name, or its id when it has none (for the
// consent page).
func (a *Apps) CompanyName(ctx context.Context, companyID string) (string, error) {
	return a.accounts.CompanyName(ctx, companyID)
}

// companyOf reads the company's name for its events.
func (a *Apps) companyOf(ctx context.Context, companyID string) (companyRef, error) {
	name, err := a.accounts.CompanyName(ctx, companyID)
	return companyRef{ID: companyID, Name: name}, err
}

// Events returns the app's webhook events, oldest first, with their
// deliveries.
func (a *Apps) Events(ctx context.Context, appID string) ([]Event, error) {
	items, err := storage.QueryPartition[EventItem](ctx, a.table, EventsPK(appID), "EVENT#")
	if err != nil {
		return nil, err
	}
	out := make([]Event, len(items))
	for i, it := range items {
		out[i] = it.Event
	}
	return out, nil
}

// ErrNotRedeliverable is Requeue's answer for an event still being
// delivered (pending): it will be attempted again anyway.
var ErrNotRedeliverable = errors.New("the event is still being delivered: it is not redelivered before its attempts end")

// ErrNoDelivery is Requeue's answer for a delivery that is not (or no
// longer) kept.
var ErrNoDelivery = errors.New("no such delivery (deliveries are kept 30 days)")

// Requeue makes the ended (delivered or failed) event at key due again now,
// for a redelivery: its attempts so far are kept, and its retries run for
// another 3 days from now; its account event counts it as pending again. An
// event still pending is left alone (ErrNotRedeliverable); one that is gone
// ErrNoDelivery.
func Requeue(ctx context.Context, table *storage.Table, key storage.Key, now time.Time) error {
	it, err := storage.Get[EventItem](ctx, table, key)
	if err != nil {
		return err
	}
	if it == nil {
		return ErrNoDelivery
	}
	if it.Status == DeliveryPending {
		return ErrNotRedeliverable
	}
	stamp := clock.Timestamp(now)
	upd := expression.Set(expression.Name("status"), expression.Value(DeliveryPending)).
		Set(expression.Name("nextAttemptAt"), expression.Value(stamp)).
		Set(expression.Name("retryFrom"), expression.Value(stamp)).
		Set(expression.Name(storage.AttrGSI1PK), expression.Value(DuePK(key))).
		Set(expression.Name(storage.AttrGSI1SK), expression.Value(DueSK(now, key))).
		Remove(expression.Name(storage.AttrExpiresAt)).Remove(expression.Name("leaseUntil"))
	// Only from the state read: two redeliveries at once requeue it once.
	cond := expression.Name("status").Equal(expression.Value(it.Status))
	if err := table.Update(ctx, key, upd, &cond); err != nil {
		if storage.IsConditionFailed(err) {
			return ErrNotRedeliverable
		}
		return err
	}
	if it.Source == "" {
		return nil
	}
	return events.DeliveryAgain(ctx, table, storage.Key{PK: it.Source, SK: key.SK}, it.Status == DeliveryFailed)
}

// redeliverPage is how many deliveries RequeueEvent reads a call.
const redeliverPage = 200

// RequeueEvent makes the delivery eventID of the receiver whose deliveries
// are partition pk (EventsPK of an app or an account's endpoint) due again
// (Requeue), reading newest first and ending at the page that holds it: a
// redelivery is nearly always of a recent event, so it reads a page or
// two rather than 30 days of deliveries. ErrNoDelivery when there is none.
func RequeueEvent(ctx context.Context, table *storage.Table, pk, eventID string, now time.Time) error {
	only := expression.Name("eventId").Equal(expression.Value(eventID))
	pages, err := storage.NewPages[EventItem](table, storage.Query{
		Key: storage.PartitionPrefix(pk, "EVENT#"), Filter: &only, Descending: true,
	}, redeliverPage)
	if err != nil {
		return err
	}
	for {
		items, more, err := pages.Next(ctx)
		if err != nil {
			return err
		}
		if len(items) > 0 {
			return Requeue(ctx, table, items[0].Key, now)
		}
		if !more {
			return ErrNoDelivery
		}
	}
}

// RequeueFailed makes every failed delivery of partition pk made since
// since due again (Requeue) and returns how many; one taken up meanwhile,
// or gone, is passed over.
func RequeueFailed(ctx context.Context, table *storage.Table, pk string, since, now time.Time) (int, error) {
	failed := expression.Name("status").Equal(expression.Value(DeliveryFailed))
	items, err := storage.QueryAll[EventItem](ctx, table, storage.Query{
		Key: expression.Key(storage.AttrPK).Equal(expression.Value(pk)).
			And(expression.Key(storage.AttrSK).Between(expression.Value("EVENT#"+clock.Timestamp(since)), expression.Value("EVENT$"))),
		Filter: &failed,
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, it := range items {
		err := Requeue(ctx, table, it.Key, now)
		if errors.Is(err, ErrNotRedeliverable) || errors.Is(err, ErrNoDelivery) {
			continue
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Redeliver sends the app's delivery eventID again (RequeueEvent), with an
// audit entry in its company's list.
func (a *Apps) Redeliver(ctx context.Context, appID, eventID string, by auth.Actor) error {
	app, err := a.Get(ctx, appID)
	if err != nil {
		return err
	}
	if validate.IDProblem("event", eventID) != "" {
		return ErrNoDelivery
	}
	now := a.clock.Now()
	if err := RequeueEvent(ctx, a.table, EventsPK(app.ID), eventID, now); err != nil {
		return err
	}
	return auth.AddAuditEntry(a.table.Tx(), storage.CompanyPK(app.CompanyID), now, by, auth.AuditRedelivered, app.ID, app.Name, "event "+eventID).Commit(ctx)
}

// RedeliverFailed sends again every delivery of the app that failed, made
// since since (RequeueFailed), with one audit entry in its company's list
// when there was any, and returns how many.
func (a *Apps) RedeliverFailed(ctx context.Context, appID string, since time.Time, by auth.Actor) (int, error) {
	app, err := a.Get(ctx, appID)
	if err != nil {
		return 0, err
	}
	now := a.clock.Now()
	n, err := RequeueFailed(ctx, a.table, EventsPK(app.ID), since, now)
	if err != nil || n == 0 {
		return n, err
	}
	detail := fmt.Sprintf("%d failed since %s", n, since.UTC().Format(time.RFC3339))
	return n, auth.AddAuditEntry(a.table.Tx(), storage.CompanyPK(app.CompanyID), now, by, auth.AuditRedelivered, app.ID, app.Name, detail).Commit(ctx)
}
