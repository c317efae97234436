// Package events records an event for every change an API consumer cares
// about (a task deleted, a relation created, a user created, ...): the
// event's item is one more write of the change's own transaction
// (storage.Tx), so an event exists exactly when its change was committed,
// and a refused request, a failed condition, a replay or a write that
// changed nothing leaves none. Each event is kept Lifetime in its owner's
// partition, newest last, for GET /events and for delivery.
//
// Each area declares the types its changes make (app.Area.Events), with the
// Go type of their fields; internal/catalog.EventTypes gathers them, and
// go generate ./... derives from it the catalogue (docs/events.md), the
// OpenAPI webhooks and Registry (registry.go), the one list every binary
// reads.
package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// Lifetime is how long an event is kept (its TTL): an integration that was
// down that long still catches up from GET /events.
const Lifetime = 30 * 24 * time.Hour

// Type is one kind of event.
type Type struct {
	// Name is the event's "type", the public platform's where it has the
	// event (TaskDelete, RelationCreate), else one in the same style.
	Name string
	// Scope is the token scope that can read the event's resource: only a
	// token or an install holding it sees or receives the event.
	Scope string
	// Version is the version of the event's shape, sent as "version".
	Version int
	// Summary says when the event is made.
	Summary string
	// OfCompany says the event is a company's (Owner.CompanyID, companyId
	// in its body), never an account's: only apps installed for the
	// company receive it, and an account's own endpoint cannot choose it.
	OfCompany bool
	// Routed says the event concerns one marketplace app and goes to it
	// alone, its Route (INSTALL, UNINSTALL): whatever types the app chose
	// and whatever its install's scopes, and to no account endpoint. Its
	// body names the app itself.
	Routed bool
	// Fields is a value of the type of the resource's fields, as the
	// change's answer shows them (JSON tags): the schema's source.
	Fields any
}

// Owner is whose partition an event is kept in and whom it is sent for:
// an account (its locationId), or for company resources (users) a company.
type Owner struct {
	LocationID string
	CompanyID  string
}

// PK is the partition of the owner's events.
func (o Owner) PK() string {
	if o.LocationID != "" {
		return "EVENTS#ACCOUNT#" + o.LocationID
	}
	return "EVENTS#COMPANY#" + o.CompanyID
}

// Envelope fields every event carries besides the resource's fields.
const (
	FieldType       = "type"
	FieldLocationID = "locationId"
	FieldCompanyID  = "companyId"
	FieldWebhookID  = "webhookId"
	FieldTimestamp  = "timestamp"
	FieldVersion    = "version"
)

// Event is one stored event.
type Event struct {
	// ID is the event's webhookId: unique, for receivers to deduplicate.
	ID        string `dynamodbav:"eventId"`
	Type      string `dynamodbav:"type"`
	Scope     string `dynamodbav:"scope"`
	CreatedAt string `dynamodbav:"createdAt"`
	// Body is the JSON body exactly as it is signed and sent.
	Body string `dynamodbav:"body"`
	// Route is a routed event's one receiver (Type.Routed); nil for the
	// others, which go to whoever chose their type.
	Route *Route `dynamodbav:"route,omitempty"`
}

// Route is the one receiver of a routed event: the app it concerns, at its
// webhook URL as the change saw it ("" when the app has none), so that an
// UNINSTALL still reaches an app deleted since.
type Route struct {
	AppID string `dynamodbav:"appId"`
	URL   string `dynamodbav:"url"`
}

// item is an event as stored. It sits in a fan-out index partition (GSI1)
// until the deliverer has handed it to the apps (and an account's to the
// endpoints) that receive it.
type item struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK,omitempty"`
	GSI1SK string `dynamodbav:"GSI1SK,omitempty"`
	Event
	ExpiresAt int64 `dynamodbav:"expiresAt"`
}

// FanOutShards spread the events waiting for fan-out over this many index
// partitions: one partition takes about 1,000 writes a second, and every
// change of every account writes an event.
const FanOutShards = 8

// FanOutPK is the index partition of the waiting events of shard n.
func FanOutPK(n int) string { return fmt.Sprintf("EVENTS#FANOUT#%d", n) }

// shardOf places an event by its id's first hex digit.
func shardOf(id string) int {
	d, err := strconv.ParseUint(id[:1], 16, 8)
	if err != nil {
		return 0
	}
	return int(d) % FanOutShards
}

// sortKey orders an owner's events by time, then id.
func sortKey(at time.Time, id string) string { return "EVENT#" + clock.Timestamp(at) + "#" + id }

// Add adds the event of typ about fields (a value of typ.Fields' type, as
// the change's answer shows the resource) to tx, the change's transaction.
func (typ Type) Add(tx *storage.Tx, owner Owner, fields any, now time.Time) *storage.Tx {
	if typ.Routed {
		return tx.Abort(fmt.Errorf("events: %s is routed to one app: AddRouted", typ.Name))
	}
	return typ.add(tx, owner, fields, nil, now)
}

// AddRouted is Add for a routed type (INSTALL, UNINSTALL): the event goes
// to route alone.
func (typ Type) AddRouted(tx *storage.Tx, owner Owner, fields any, route Route, now time.Time) *storage.Tx {
	if !typ.Routed {
		return tx.Abort(fmt.Errorf("events: %s is not routed: Add", typ.Name))
	}
	return typ.add(tx, owner, fields, &route, now)
}

func (typ Type) add(tx *storage.Tx, owner Owner, fields any, route *Route, now time.Time) *storage.Tx {
	if reflect.TypeOf(fields) != reflect.TypeOf(typ.Fields) {
		return tx.Abort(fmt.Errorf("events: %s carries %T, not %T", typ.Name, typ.Fields, fields))
	}
	id := ids.Hex24()
	body, err := Body(typ, owner, fields, id, now)
	if err != nil {
		return tx.Abort(err)
	}
	it := item{
		Key:       storage.Key{PK: owner.PK(), SK: sortKey(now, id)},
		Event:     Event{ID: id, Type: typ.Name, Scope: typ.Scope, CreatedAt: clock.Timestamp(now), Body: string(body), Route: route},
		ExpiresAt: now.Add(Lifetime).Unix(),
	}
	it.GSI1PK, it.GSI1SK = FanOutPK(shardOf(id)), it.SK
	return tx.Put(it, storage.ItemAbsent())
}

// Body is the event's JSON: one flat object of "type", the owner's
// "locationId" (or "companyId"), the resource's fields, then "webhookId",
// "timestamp" and "version". It is written as JavaScript's JSON.stringify
// writes the parsed object (no HTML escaping, no trailing newline), so that
// the official SDK's verification of the signature, which signs that text,
// holds.
func Body(typ Type, owner Owner, fields any, id string, now time.Time) ([]byte, error) {
	inner, err := Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("events: encode %s: %w", typ.Name, err)
	}
	members, err := members(inner)
	if err != nil {
		return nil, fmt.Errorf("events: %s: %w", typ.Name, err)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	put := func(name string, raw []byte) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		n, _ := Marshal(name) // a string: cannot fail
		b.Write(n)
		b.WriteByte(':')
		b.Write(raw)
	}
	str := func(s string) []byte { raw, _ := Marshal(s); return raw }
	put(FieldType, str(typ.Name))
	if owner.LocationID != "" {
		put(FieldLocationID, str(owner.LocationID))
	}
	if owner.CompanyID != "" {
		put(FieldCompanyID, str(owner.CompanyID))
	}
	for _, m := range members {
		switch {
		case m.name == FieldLocationID && owner.LocationID != "" && bytes.Equal(m.raw, str(owner.LocationID)),
			m.name == FieldCompanyID && owner.CompanyID != "" && bytes.Equal(m.raw, str(owner.CompanyID)):
			continue // the envelope's, said once
		case envelope[m.name]:
			// A resource field named like the envelope's would be lost or
			// contradict it: the type must name it otherwise.
			return nil, fmt.Errorf("events: %s: the field %s is the envelope's", typ.Name, m.name)
		}
		put(m.name, m.raw)
	}
	put(FieldWebhookID, str(id))
	put(FieldTimestamp, str(clock.Timestamp(now)))
	put(FieldVersion, []byte(fmt.Sprint(typ.Version)))
	b.WriteByte('}')
	return b.Bytes(), nil
}

var envelope = map[string]bool{
	FieldType: true, FieldLocationID: true, FieldCompanyID: true,
	FieldWebhookID: true, FieldTimestamp: true, FieldVersion: true,
}

// Marshal is json.Marshal as JavaScript's JSON.stringify writes the same
// value: no HTML escaping, no trailing newline, and U+2028 and U+2029 raw
// (Go escapes them; the SDK verifies JSON.stringify's text).
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return unescapeSeparators(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// unescapeSeparators writes the escapes \u2028 and \u2029 of JSON text as
// the characters, walking escape by escape so that an escaped backslash
// followed by "u2028" is left as it is.
func unescapeSeparators(text []byte) []byte {
	if !bytes.Contains(text, []byte(`\u202`)) {
		return text
	}
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' || i+1 == len(text) {
			out = append(out, text[i])
			continue
		}
		switch esc := string(text[i+1 : min(i+6, len(text))]); esc {
		case "u2028":
			out, i = append(out, "\u2028"...), i+5
		case "u2029":
			out, i = append(out, "\u2029"...), i+5
		default: // another escape, kept: the backslash and what it escapes
			out, i = append(out, text[i], text[i+1]), i+1
		}
	}
	return out
}

type member struct {
	name string
	raw  json.RawMessage
}

// members returns the members of a JSON object in their order.
func members(obj []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("fields are not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{name: tok.(string), raw: raw})
	}
	return out, nil
}

// Recorded is an event as read back.
type Recorded struct {
	Event
	Owner   Owner
	sortKey string
}

// Filter narrows a listing of an owner's events.
type Filter struct {
	// Types keeps the events of these types (none: every type).
	Types []string
	// Since and Until bound the events' times (zero: unbounded), Since
	// included, Until excluded.
	Since, Until time.Time
	// Matching, when set, keeps the events it holds for: their delivery
	// state over their receivers (deliveries.EventIn).
	Matching *expression.ConditionBuilder
}

// StartAfter narrows f to the events strictly after t (GET /events'
// startAfter, platformctl events list --start-after: the last timestamp a
// client saw, to the millisecond, excluded).
func (f *Filter) StartAfter(t time.Time) {
	if after := t.Add(time.Millisecond); after.After(f.Since) {
		f.Since = after
	}
}

// readable are the event scopes the holder of scopes may read.
func readable(scopes []string) []string {
	out := make([]string, 0, 2*len(scopes))
	for _, s := range scopes {
		out = append(out, s)
		if base, ok := strings.CutSuffix(s, ".write"); ok {
			out = append(out, base+".readonly")
		}
	}
	return out
}

// ErrBadCursor is Page's error for a cursor it did not make.
var ErrBadCursor = errors.New("events: not a cursor of this listing")

// pageReads bounds the queries of one page: a filter that keeps few
// events ends the page early, with a cursor, rather than reading on.
const pageReads = 10

// Page returns up to limit of the owner's events that f keeps, newest
// first, after cursor ("" for the newest), and the cursor of the next page
// ("" when no older event is left). A cursor is the sort key of the last
// event returned, so a page resumes exactly after it whatever was written
// since.
func Page(ctx context.Context, table *storage.Table, owner Owner, f Filter, limit int32, cursor string) ([]Recorded, string, error) {
	from, to := "EVENT#", "EVENT#\uffff"
	if !f.Since.IsZero() {
		from = "EVENT#" + clock.Timestamp(f.Since)
	}
	if !f.Until.IsZero() {
		to = "EVENT#" + clock.Timestamp(f.Until)
	}
	if cursor != "" {
		if !strings.HasPrefix(cursor, "EVENT#") {
			return nil, "", ErrBadCursor
		}
		to = min(to, cursor)
	}
	if from >= to {
		return []Recorded{}, "", nil
	}
	q := storage.Query{
		Key: expression.Key(storage.AttrPK).Equal(expression.Value(owner.PK())).
			And(expression.Key(storage.AttrSK).Between(expression.Value(from), expression.Value(to))),
		Descending: true,
		// A listing a moment behind the latest write is not wrong (the
		// next call shows the event): half the read units.
		Eventual: true,
	}
	var conds []expression.ConditionBuilder
	if len(f.Types) > 0 {
		conds = append(conds, in("type", f.Types))
	}
	if f.Matching != nil {
		conds = append(conds, *f.Matching)
	}
	if len(conds) > 0 {
		c := conds[0]
		for _, more := range conds[1:] {
			c = c.And(more)
		}
		q.Filter = &c
	}
	out := []Recorded{}
	var start storage.Cursor
	for range pageReads {
		items, next, err := storage.QueryPage[item](ctx, table, q, limit+1, start)
		if err != nil {
			return nil, "", err
		}
		for _, it := range items {
			// The range's upper bound is inclusive: the cursor's own event
			// (and one at exactly Until) is not part of the page.
			if it.SK == cursor || !f.Until.IsZero() && it.SK >= "EVENT#"+clock.Timestamp(f.Until) {
				continue
			}
			if int32(len(out)) == limit {
				return out, out[len(out)-1].sortKey, nil
			}
			out = append(out, Recorded{Event: it.Event, Owner: owner, sortKey: it.SK})
		}
		if next == nil {
			return out, "", nil
		}
		start = next
	}
	// Read enough: the next page resumes after the last event read.
	var last string
	if err := attributevalue.Unmarshal(start[storage.AttrSK], &last); err != nil {
		return nil, "", fmt.Errorf("events: cursor: %w", err)
	}
	return out, last, nil
}

// in is the condition "name is one of values".
func in(name string, values []string) expression.ConditionBuilder {
	operands := make([]expression.OperandBuilder, len(values))
	for i, v := range values {
		operands[i] = expression.Value(v)
	}
	if len(operands) == 1 {
		return expression.Name(name).Equal(operands[0])
	}
	return expression.Name(name).In(operands[0], operands[1:]...)
}

// Readable reports whether the holder of scopes may read an event of scope
// (holding it, or its resource's .write).
func Readable(scopes []string, scope string) bool {
	return slices.Contains(readable(scopes), scope)
}

// Key is where the event is stored.
func (r Recorded) Key() storage.Key { return storage.Key{PK: r.Owner.PK(), SK: r.sortKey} }

// AccountOf returns the account of an account's events partition.
func AccountOf(pk string) (string, bool) { return strings.CutPrefix(pk, "EVENTS#ACCOUNT#") }

// ownerOf returns the owner of an events partition.
func ownerOf(pk string) (Owner, bool) {
	if account, ok := AccountOf(pk); ok {
		return Owner{LocationID: account}, true
	}
	company, ok := strings.CutPrefix(pk, "EVENTS#COMPANY#")
	return Owner{CompanyID: company}, ok
}

// WaitingFanOut returns up to limit events of shard n still to be handed
// to the apps that receive them, oldest first (the index is eventually
// consistent: a moment-old event may be missing).
func WaitingFanOut(ctx context.Context, table *storage.Table, n int, limit int32) ([]Recorded, error) {
	items, _, err := storage.QueryPage[item](ctx, table, storage.Query{
		Index: storage.IndexGSI1, Key: expression.Key(storage.AttrGSI1PK).Equal(expression.Value(FanOutPK(n))), Eventual: true,
	}, limit, nil)
	if err != nil {
		return nil, err
	}
	out := make([]Recorded, 0, len(items))
	for _, it := range items {
		if owner, ok := ownerOf(it.PK); ok {
			out = append(out, Recorded{Event: it.Event, Owner: owner, sortKey: it.SK})
		}
	}
	return out, nil
}

// InFanOut is the condition that an event still waits in the fan-out
// index: not yet handed to its receivers.
func InFanOut() expression.ConditionBuilder {
	return expression.AttributeExists(expression.Name(storage.AttrGSI1PK))
}

// HandedOn takes the event at key out of the fan-out index, writing set
// with it (its delivery counts). Only the first run to hand it on writes
// (two at once: the stream's and the sweep's); the others, and a run on an
// event gone meanwhile (its TTL), get a failed condition.
func HandedOn(ctx context.Context, table *storage.Table, key storage.Key, set expression.UpdateBuilder) error {
	upd := set.Remove(expression.Name(storage.AttrGSI1PK)).Remove(expression.Name(storage.AttrGSI1SK))
	waiting := InFanOut()
	return table.Update(ctx, key, upd, &waiting)
}

// IsEventKey reports whether key is an event's (an account's or a
// company's), as a stream record names it.
func IsEventKey(key storage.Key) bool {
	_, ok := ownerOf(key.PK)
	return ok && strings.HasPrefix(key.SK, "EVENT#")
}

// StillWaiting reads the events at keys (strongly consistent: a stream
// record names an event before the index may show it) and returns those
// still waiting to be handed on; a key of no event is passed over.
func StillWaiting(ctx context.Context, table *storage.Table, keys []storage.Key) ([]Recorded, error) {
	var out []Recorded
	for _, k := range keys {
		owner, ok := ownerOf(k.PK)
		if !ok {
			continue
		}
		it, err := storage.Get[item](ctx, table, k)
		if err != nil {
			return nil, err
		}
		if it != nil && it.GSI1PK != "" {
			out = append(out, Recorded{Event: it.Event, Owner: owner, sortKey: it.SK})
		}
	}
	return out, nil
}
