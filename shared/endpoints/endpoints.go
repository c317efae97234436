// Package endpoints holds an account's own webhook endpoints: URLs its
// admins add (in the portal, or with `platformctl webhooks`) to receive the
// account's events, for integrations built on private tokens, as marketplace
// apps receive theirs. An endpoint is a receiver of deliveries (package
// deliveries) like an app, its deliveries in its own partition, listed and
// redelivered through here; the deliverer (package webhooks) notes its
// health (health.go). Every change to an endpoint writes an audit entry
// beside the token changes, in the same transaction.
package endpoints

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Limits of an account's endpoints.
const (
	// MaxPerAccount bounds an account's endpoints: each event is written
	// once per endpoint that takes it.
	MaxPerAccount = 10
	// MaxDescription bounds an endpoint's description, in characters.
	MaxDescription = 200
	// MaxURL bounds an endpoint's URL, in bytes.
	MaxURL = 2048
)

// Why an endpoint is disabled.
const (
	// DisabledByAdmin: an admin turned it off.
	DisabledByAdmin = "admin"
	// DisabledFailing: every attempt to it failed for FailingLimit.
	DisabledFailing = "failing"
)

// FailingLimit is how long an endpoint may fail every attempt before the
// deliverer disables it: as long as a delivery is retried
// (deliveries.GiveUp; a local schedule's own: Store.OnSchedule).
const FailingLimit = deliveries.GiveUp

// Audit actions on endpoints, in the account's audit list; the subject is
// the endpoint (its id, and its URL as its name).
const (
	AuditAdded       = "webhook-added"
	AuditUpdated     = "webhook-updated"
	AuditRemoved     = "webhook-removed"
	AuditDisabled    = "webhook-disabled"
	AuditRedelivered = auth.AuditRedelivered
)

// Endpoint is one of an account's webhook endpoints.
type Endpoint struct {
	ID          string   `dynamodbav:"id" json:"id"`
	AccountID   string   `dynamodbav:"accountId" json:"locationId"`
	URL         string   `dynamodbav:"url" json:"url"`
	Description string   `dynamodbav:"description,omitempty" json:"description,omitempty"`
	Events      []string `dynamodbav:"events" json:"events"`
	Enabled     bool     `dynamodbav:"enabled" json:"enabled"`
	CreatedAt   string   `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt   string   `dynamodbav:"updatedAt" json:"updatedAt"`
	// DisabledReason says why a disabled endpoint is (DisabledByAdmin,
	// DisabledFailing); DisabledAt when.
	DisabledReason string `dynamodbav:"disabledReason,omitempty" json:"disabledReason,omitempty"`
	DisabledAt     string `dynamodbav:"disabledAt,omitempty" json:"disabledAt,omitempty"`
	// FailingSince is the first failed attempt since the last delivered
	// one; "" while the endpoint answers.
	FailingSince string `dynamodbav:"failingSince,omitempty" json:"failingSince,omitempty"`
	// Secret is the signing secret, sealed (secret.go); nil for an
	// endpoint added before secrets were, whose deliveries carry
	// x-ghl-signature alone until one is made (RotateSecret). SecretHint
	// is its mask (secrets.Mask), SecretCreatedAt when it was made.
	Secret          *secrets.Sealed `dynamodbav:"secret,omitempty" json:"-"`
	SecretHint      string          `dynamodbav:"secretHint,omitempty" json:"secretHint,omitempty"`
	SecretCreatedAt string          `dynamodbav:"secretCreatedAt,omitempty" json:"secretCreatedAt,omitempty"`
	// PreviousSecret signs beside Secret until PreviousSecretUntil, after
	// a rotation that kept it.
	PreviousSecret      *secrets.Sealed `dynamodbav:"previousSecret,omitempty" json:"-"`
	PreviousSecretUntil string          `dynamodbav:"previousSecretUntil,omitempty" json:"previousSecretUntil,omitempty"`
	// SigningSecret is a new secret in the clear, set only in the answer
	// of Add and RotateSecret: shown once, never stored.
	SigningSecret string `dynamodbav:"-" json:"signingSecret,omitempty"`
	Version       int64  `dynamodbav:"version" json:"-"`
}

// Takes reports whether the endpoint receives events of type typ now.
func (e Endpoint) Takes(typ string) bool { return e.Enabled && slices.Contains(e.Events, typ) }

// Receiver is the endpoint as its account's events reach it: the types it
// takes now (none while disabled), of its account alone, whatever their
// scope.
func (e Endpoint) Receiver() deliveries.Receiver {
	var types []string
	if e.Enabled {
		types = e.Events
	}
	return deliveries.Receiver{ID: e.ID, URL: e.URL, Types: types, AccountID: e.AccountID}
}

// Errors of the store, each a message an admin can act on.
var (
	ErrNoEndpoint = errors.New("no such webhook endpoint in this account")
	ErrTooMany    = fmt.Errorf("an account has at most %d webhook endpoints: remove one first", MaxPerAccount)
)

// Store keeps endpoints in their account's partition.
type Store struct {
	table *storage.Table
	items *storage.AccountItems[Endpoint]
	clock clock.Clock
	// localURLs allows http URLs on the loopback host (a local engine).
	localURLs bool
	// failingLimit is FailingLimit, or a local schedule's GiveUp.
	failingLimit time.Duration
	// keeper seals and opens signing secrets (Sealing).
	keeper *secrets.Keeper
}

// New returns the store of table; localURLs says whether http://127.0.0.1
// URLs are allowed (a local engine only).
func New(table *storage.Table, c clock.Clock, localURLs bool) *Store {
	items := storage.NewAccountItems(table, "WEBHOOK#", func(e Endpoint) (string, string) { return e.AccountID, e.ID })
	return &Store{table: table, items: items, clock: c, localURLs: localURLs, failingLimit: FailingLimit}
}

// OnSchedule returns the store on the deliveries' schedule sched: an
// endpoint failing every attempt for its GiveUp is disabled.
func (s *Store) OnSchedule(sched deliveries.Schedule) *Store {
	c := *s
	c.failingLimit = sched.GiveUp
	return &c
}

// FailingLimit is how long an endpoint may fail every attempt before the
// deliverer disables it, on the store's schedule.
func (s *Store) FailingLimit() time.Duration { return s.failingLimit }

// Input is what an admin sets on an endpoint; a nil field is left as it is
// (on Add: URL and Events are required, Enabled defaults to true).
type Input struct {
	URL         *string
	Description *string
	Events      *[]string
	Enabled     *bool
}

// check records the rules input breaks; creating asks for URL and Events.
func (s *Store) check(in Input, creating bool) error {
	var v validate.Errors
	if in.URL != nil {
		u := strings.TrimSpace(*in.URL)
		switch {
		case u == "":
			v.Add("url must not be empty")
		case len(u) > MaxURL:
			v.Add(fmt.Sprintf("url must be at most %d bytes", MaxURL))
		default:
			v.WebhookURL("url", u, s.localURLs)
		}
	} else if creating {
		v.Add("url is required")
	}
	if in.Description != nil {
		v.MaxLen("description", *in.Description, MaxDescription)
		v.Text("description", *in.Description)
	}
	if in.Events != nil {
		if v.Check(len(*in.Events) > 0, "events must name at least one event type (docs/events.md lists them)") {
			for _, t := range *in.Events {
				v.Check(slices.Contains(events.EndpointTypes(), t), fmt.Sprintf("%q is not an event type an account receives (docs/events.md lists them)", t))
			}
		}
	} else if creating {
		v.Add("events must name at least one event type (docs/events.md lists them)")
	}
	return v.Err()
}

// List returns the account's endpoints, ordered by id.
func (s *Store) List(ctx context.Context, accountID string) ([]Endpoint, error) {
	return s.items.List(ctx, accountID)
}

// Get returns the account's endpoint id (ErrNoEndpoint when it has none).
func (s *Store) Get(ctx context.Context, accountID, id string) (Endpoint, error) {
	if validate.IDProblem("webhook", id) != "" {
		return Endpoint{}, ErrNoEndpoint
	}
	e, err := s.items.Get(ctx, accountID, id)
	if err != nil {
		return Endpoint{}, err
	}
	if e == nil {
		return Endpoint{}, ErrNoEndpoint
	}
	return *e, nil
}

// Add adds an endpoint to the account, with its audit entry and its
// signing secret, which the answer's SigningSecret shows once. The account
// keeps at most MaxPerAccount however many adds run at once: each add
// counts the endpoints after reading the account's count of adds
// (addsKey), and writes the endpoint in one transaction with that count
// moved on, on condition that it is still the one read; of adds counted
// at once one commits, and the others count again (an account full by
// then refuses them).
func (s *Store) Add(ctx context.Context, accountID string, in Input, by auth.Actor) (Endpoint, error) {
	if err := s.check(in, true); err != nil {
		return Endpoint{}, err
	}
	for attempt := 1; ; attempt++ {
		e, added, err := s.addOnce(ctx, accountID, in, by)
		if added || err != nil {
			return e, err
		}
		if attempt == maxAddAttempts {
			return Endpoint{}, apierror.Unavailable(fmt.Errorf("add a webhook endpoint to %s: %w", accountID, storage.ErrContention), time.Second)
		}
		if err := storage.Pause(ctx, rand.N(time.Duration(attempt)*5*time.Millisecond)); err != nil {
			return Endpoint{}, err
		}
	}
}

// maxAddAttempts bounds the counts of one Add: each lost one means another
// add committed, and at most MaxPerAccount can, so an add that lost that
// many finds the account full (removes at the same moment aside).
const maxAddAttempts = 3 * MaxPerAccount

// adds is the account's count of endpoint adds (addsKey): the condition
// that keeps the limit under concurrent adds. Removes leave it: a remove
// only lowers the count an add read.
type adds struct {
	N int `dynamodbav:"adds"`
}

// addsKey is where the account's count of adds is kept.
func addsKey(accountID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "WEBHOOKADDS"}
}

// addOnce counts the account's endpoints and adds one, unless another add
// committed since the count was read (added false, nothing written).
func (s *Store) addOnce(ctx context.Context, accountID string, in Input, by auth.Actor) (Endpoint, bool, error) {
	count, err := storage.Get[adds](ctx, s.table, addsKey(accountID))
	if err != nil {
		return Endpoint{}, false, err
	}
	have, err := s.items.List(ctx, accountID)
	if err != nil {
		return Endpoint{}, false, err
	}
	if len(have) >= MaxPerAccount {
		return Endpoint{}, false, ErrTooMany
	}
	unchanged := storage.ItemAbsent()
	read := 0
	if count != nil {
		read = count.N
		same := expression.Name(attrAdds).Equal(expression.Value(read))
		unchanged = &same
	}
	now := s.clock.Now()
	stamp := clock.Timestamp(now)
	e := Endpoint{
		ID: ids.Hex24(), AccountID: accountID, URL: strings.TrimSpace(*in.URL), Events: dedupe(*in.Events),
		Enabled: true, CreatedAt: stamp, UpdatedAt: stamp,
	}
	if in.Description != nil {
		e.Description = strings.TrimSpace(*in.Description)
	}
	if in.Enabled != nil && !*in.Enabled {
		e.Enabled, e.DisabledReason, e.DisabledAt = false, DisabledByAdmin, stamp
	}
	secret, sealed, err := s.newSecret(ctx, accountID, e.ID)
	if err != nil {
		return Endpoint{}, false, err
	}
	e.setSecret(secret, sealed, stamp)
	added, err := s.items.CreateAlong(ctx, e, func(tx *storage.Tx) {
		tx.Update(addsKey(accountID), expression.Set(expression.Name(attrAdds), expression.Value(read+1)), unchanged)
		auth.AddAuditEntry(tx, storage.AccountPK(accountID), now, by, AuditAdded, e.ID, e.URL, describe(e))
	})
	return e, added, err
}

// attrAdds is adds' one attribute, as its tag names it.
const attrAdds = "adds"

// Update changes the account's endpoint id as in says, with its audit
// entry. Enabling an endpoint clears why it was disabled and its failures.
func (s *Store) Update(ctx context.Context, accountID, id string, in Input, by auth.Actor) (Endpoint, error) {
	if err := s.check(in, false); err != nil {
		return Endpoint{}, err
	}
	if _, err := s.Get(ctx, accountID, id); err != nil {
		return Endpoint{}, err
	}
	now := s.clock.Now()
	stamp := clock.Timestamp(now)
	changed, err := s.items.Update(ctx, accountID, id, func(e *Endpoint) error {
		before := *e
		if in.URL != nil {
			e.URL = strings.TrimSpace(*in.URL)
		}
		if in.Description != nil {
			e.Description = strings.TrimSpace(*in.Description)
		}
		if in.Events != nil {
			e.Events = dedupe(*in.Events)
		}
		if in.Enabled != nil && *in.Enabled != e.Enabled {
			e.Enabled = *in.Enabled
			if e.Enabled {
				e.DisabledReason, e.DisabledAt, e.FailingSince = "", "", ""
			} else {
				e.DisabledReason, e.DisabledAt = DisabledByAdmin, stamp
			}
		}
		if e.URL == before.URL && e.Description == before.Description && slices.Equal(e.Events, before.Events) && e.Enabled == before.Enabled {
			return storage.ErrNoChange
		}
		e.UpdatedAt = stamp
		return nil
	}, storage.Alongside(func(tx *storage.Tx, e *Endpoint) {
		auth.AddAuditEntry(tx, storage.AccountPK(accountID), now, by, AuditUpdated, e.ID, e.URL, describe(*e))
	}))
	if err != nil {
		return Endpoint{}, err
	}
	if changed == nil {
		return Endpoint{}, ErrNoEndpoint
	}
	return *changed, nil
}

// Remove removes the account's endpoint id, with its audit entry. Its
// deliveries stay until their TTL, and are no longer attempted.
func (s *Store) Remove(ctx context.Context, accountID, id string, by auth.Actor) error {
	if validate.IDProblem("webhook", id) != "" {
		return ErrNoEndpoint
	}
	now := s.clock.Now()
	ok, err := s.items.DeleteAlong(ctx, accountID, id, func(tx *storage.Tx, old Endpoint) {
		auth.AddAuditEntry(tx, storage.AccountPK(accountID), now, by, AuditRemoved, old.ID, old.URL, "")
	})
	if err != nil {
		return err
	}
	if !ok {
		return ErrNoEndpoint
	}
	return nil
}

// describe is an audit entry's detail: what the endpoint is set to.
func describe(e Endpoint) string {
	state := "enabled"
	if !e.Enabled {
		state = "disabled"
	}
	return state + "; events: " + strings.Join(e.Events, ", ")
}

func dedupe(in []string) []string {
	var out []string
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Deliveries is at most limit of the endpoint's deliveries (those in state
// when it is not ""), newest first, older than before, and the cursor of
// the next page (deliveries.Page).
func (s *Store) Deliveries(ctx context.Context, accountID, id string, state deliveries.State, limit int32, before string) ([]deliveries.Delivery, string, error) {
	if _, err := s.Get(ctx, accountID, id); err != nil {
		return nil, "", err
	}
	return deliveries.Page(ctx, s.table, id, state, limit, before)
}

// Redeliver sends again what r names of the endpoint's deliveries
// (deliveries.Redeliver), with one audit entry when it sent any, and
// returns what it queued.
func (s *Store) Redeliver(ctx context.Context, accountID, id string, r deliveries.Redelivery, by auth.Actor) (deliveries.Redelivered, error) {
	e, err := s.Get(ctx, accountID, id)
	if err != nil {
		return deliveries.Redelivered{}, err
	}
	now := s.clock.Now()
	done, err := deliveries.Redeliver(ctx, s.table, id, r, now)
	if err != nil || done.Queued == 0 {
		return done, err
	}
	return done, auth.AddAuditEntry(s.table.Tx(), storage.AccountPK(e.AccountID), now, by, AuditRedelivered, e.ID, e.URL, r.Detail(done.Queued)).Commit(ctx)
}

// Retry makes the endpoint's pending delivery eventID due now
// (deliveries.Retry: "Retry now" once its receiver is fixed), with an
// audit entry.
func (s *Store) Retry(ctx context.Context, accountID, id, eventID string, by auth.Actor) error {
	e, err := s.Get(ctx, accountID, id)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	if err := deliveries.Retry(ctx, s.table, id, eventID, now); err != nil {
		return err
	}
	return auth.AddAuditEntry(s.table.Tx(), storage.AccountPK(e.AccountID), now, by, AuditRedelivered, e.ID, e.URL, "event "+eventID+", retried now").Commit(ctx)
}

// ErrDisabledTest answers a test event to a disabled endpoint: it would
// not be sent.
var ErrDisabledTest = errors.New("the endpoint is disabled, so a test event would not be sent to it: enable it first")

// SendTest sends a test event (deliveries.AddTest) to the account's
// endpoint id, and waits up to wait for its one attempt: the delivery is
// returned as it is then (pending when the deliverer has not tried it
// yet). A disabled endpoint is ErrDisabledTest.
func (s *Store) SendTest(ctx context.Context, accountID, id string, wait time.Duration) (deliveries.Delivery, error) {
	e, err := s.Get(ctx, accountID, id)
	if err != nil {
		return deliveries.Delivery{}, err
	}
	if !e.Enabled {
		return deliveries.Delivery{}, ErrDisabledTest
	}
	d, err := deliveries.AddTest(ctx, s.table, e.AccountID, e.ID, e.URL, s.clock.Now())
	if err != nil {
		return d, err
	}
	end := time.Now().Add(wait)
	for len(d.Attempts) == 0 && time.Now().Before(end) && ctx.Err() == nil {
		time.Sleep(200 * time.Millisecond)
		got, err := deliveries.Find(ctx, s.table, e.ID, d.ID)
		if err != nil {
			return d, err
		}
		d = got
	}
	return d, nil
}

// Delivery returns the endpoint's delivery eventID (deliveries.Find).
func (s *Store) Delivery(ctx context.Context, accountID, id, eventID string) (deliveries.Delivery, error) {
	if _, err := s.Get(ctx, accountID, id); err != nil {
		return deliveries.Delivery{}, err
	}
	return deliveries.Find(ctx, s.table, id, eventID)
}
