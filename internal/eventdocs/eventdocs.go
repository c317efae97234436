// Package eventdocs derives the event catalogue from the event registry
// (catalog.EventTypes): docs/events.md and the webhooks section of
// api/openapi.yaml, each event's JSON schema drawn from the Go type of its
// fields. Its test fails when either file differs from what it derives
// (go generate ./... rewrites them).
package eventdocs

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
)

// Schema is a JSON schema, its keys written in a fixed order.
type Schema struct {
	Type        string
	Const       string
	Description string
	Properties  []Property // objects
	Required    []string
	Items       *Schema // arrays
	// Values is the schema of an open object's values (maps).
	Values *Schema
}

// Property is a named member of an object schema.
type Property struct {
	Name   string
	Schema Schema
}

// EventSchema is the schema of typ's body: the envelope and the fields.
func EventSchema(typ events.Type) Schema {
	fields := schemaOf(reflect.TypeOf(typ.Fields))
	s := Schema{Type: "object", Description: typ.Summary}
	add := func(name string, p Schema, required bool) {
		s.Properties = append(s.Properties, Property{Name: name, Schema: p})
		if required {
			s.Required = append(s.Required, name)
		}
	}
	add(events.FieldType, Schema{Type: "string", Const: typ.Name}, true)
	owner := events.FieldLocationID
	if typ.OfCompany {
		owner = events.FieldCompanyID
		add(owner, Schema{Type: "string", Description: "The company the user belongs to."}, true)
	} else {
		add(owner, Schema{Type: "string", Description: "The account (sub-account) of the change."}, true)
	}
	required := map[string]bool{}
	for _, r := range fields.Required {
		required[r] = true
	}
	for _, p := range fields.Properties {
		if p.Name == owner {
			continue // the envelope's
		}
		add(p.Name, p.Schema, required[p.Name])
	}
	add(events.FieldWebhookID, Schema{Type: "string", Description: "Unique per event: a receiver deduplicates redeliveries by it."}, true)
	add(events.FieldTimestamp, Schema{Type: "string", Description: "When the change was committed (UTC, milliseconds)."}, true)
	add(events.FieldVersion, Schema{Type: "integer", Description: "The version of the event's shape."}, true)
	return s
}

// schemaOf is the schema of a Go type as encoding/json writes it.
func schemaOf(t reflect.Type) Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return Schema{Type: "string"}
	case reflect.Bool:
		return Schema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Schema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return Schema{Type: "number"}
	case reflect.Slice, reflect.Array:
		items := schemaOf(t.Elem())
		return Schema{Type: "array", Items: &items}
	case reflect.Map:
		values := schemaOf(t.Elem())
		return Schema{Type: "object", Values: &values}
	case reflect.Interface:
		return Schema{} // any JSON value
	case reflect.Struct:
		s := Schema{Type: "object"}
		addFields(&s, t)
		return s
	}
	panic(fmt.Sprintf("eventdocs: no schema for %s", t))
}

// addFields adds t's JSON members to s, embedded structs' flattened.
func addFields(s *Schema, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				addFields(s, et)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		s.Properties = append(s.Properties, Property{Name: name, Schema: schemaOf(f.Type)})
		if !strings.Contains(opts, "omitempty") && f.Type.Kind() != reflect.Pointer {
			s.Required = append(s.Required, name)
		}
	}
}

// YAML writes s as YAML at indent.
func (s Schema) YAML(b *strings.Builder, indent string) {
	if s.Type == "" {
		fmt.Fprintf(b, "%sdescription: Any JSON value.\n", indent)
		return
	}
	fmt.Fprintf(b, "%stype: %s\n", indent, s.Type)
	if s.Const != "" {
		fmt.Fprintf(b, "%senum: [%s]\n", indent, s.Const) // enum: what 3.0 validators check too
	}
	if s.Description != "" {
		fmt.Fprintf(b, "%sdescription: %s\n", indent, quote(s.Description))
	}
	if len(s.Required) > 0 {
		fmt.Fprintf(b, "%srequired: [%s]\n", indent, strings.Join(s.Required, ", "))
	}
	if s.Type == "object" && s.Values == nil {
		if len(s.Properties) == 0 {
			fmt.Fprintf(b, "%sproperties: {}\n", indent)
		} else {
			fmt.Fprintf(b, "%sproperties:\n", indent)
		}
		for _, p := range s.Properties {
			fmt.Fprintf(b, "%s  %s:\n", indent, p.Name)
			p.Schema.YAML(b, indent+"    ")
		}
	}
	if s.Values != nil {
		fmt.Fprintf(b, "%sadditionalProperties:\n", indent)
		s.Values.YAML(b, indent+"  ")
	}
	if s.Items != nil {
		fmt.Fprintf(b, "%sitems:\n", indent)
		s.Items.YAML(b, indent+"  ")
	}
}

// quote writes s as a YAML single-quoted string.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// WebhooksBegin and WebhooksEnd enclose the generated part of
// api/openapi.yaml: its last lines.
const (
	WebhooksBegin = "# Events: generated from the event registry (internal/eventdocs); do not edit."
	WebhooksEnd   = "# End of the generated events."
)

// Webhooks is the webhooks section of api/openapi.yaml, with its markers.
func Webhooks(types []events.Type) string {
	var b strings.Builder
	b.WriteString(WebhooksBegin + "\n")
	b.WriteString("webhooks:\n")
	for _, typ := range types {
		fmt.Fprintf(&b, "  %s:\n", typ.Name)
		b.WriteString("    post:\n")
		fmt.Fprintf(&b, "      operationId: event%s\n", typ.Name)
		fmt.Fprintf(&b, "      summary: %s\n", quote(typ.Name+" event"))
		routed := ""
		if typ.Routed {
			routed = " Sent to the app it names alone, whatever event types that app chose."
		}
		fmt.Fprintf(&b, "      description: %s\n", quote(typ.Summary+routed+" Readable with the scope "+typ.Scope+
			" (or its .write). Signed with "+deliveries.SignatureHeader+" (Ed25519 over the exact body)."))
		b.WriteString("      security: []\n") // the receiver checks x-ghl-signature, not a token
		b.WriteString("      requestBody:\n        required: true\n        content:\n          application/json:\n            schema:\n")
		EventSchema(typ).YAML(&b, "              ")
		b.WriteString("      responses:\n")
		b.WriteString("        '200':\n          description: Received; any 2xx ends the event's delivery.\n")
		fmt.Fprintf(&b, "        '4XX':\n          description: %s\n", quote("Refused; the event is delivered again later (429 after its Retry-After), for "+clock.Span(deliveries.GiveUp)+"."))
	}
	b.WriteString(WebhooksEnd + "\n")
	return b.String()
}

// RegistryFile is where Registry is written.
const RegistryFile = "shared/events/registry.go"

// Registry is shared/events/registry.go: the registry's types as every
// binary reads them (events.Registry), each without the Go type of its
// fields, which only the area making it links: GET /events checks and
// filters by them, the portal and the CLI offer them, the deliverer routes
// them. Generated rather than read from the catalog so that no binary
// links every area to know the names.
func Registry(types []events.Type) string {
	var b strings.Builder
	b.WriteString("// Code generated from the event registry (catalog.EventTypes) by go generate ./...; DO NOT EDIT.\n\n")
	b.WriteString("package events\n\n// Registry is every event type, in the catalog's order (Fields: nil).\nvar Registry = []Type{\n")
	for _, typ := range types {
		fmt.Fprintf(&b, "\t{Name: %q, Scope: %q, Version: %d, Summary: %q", typ.Name, typ.Scope, typ.Version, typ.Summary)
		if typ.OfCompany {
			b.WriteString(", OfCompany: true")
		}
		if typ.Routed {
			b.WriteString(", Routed: true")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// Markdown is docs/events.md.
func Markdown(types []events.Type) string {
	var b strings.Builder
	// The spans and counts are the constants' (clock.Span), never typed.
	b.WriteString(strings.NewReplacer(
		"{kept}", clock.Span(events.Lifetime),
		"{giveUp}", clock.Span(deliveries.GiveUp),
		"{firstRetry}", clock.Span(deliveries.FirstRetry),
		"{maxRetry}", clock.Span(deliveries.MaxRetry),
		"{fanOutShards}", fmt.Sprint(events.FanOutShards),
		"{signature}", deliveries.SignatureHeader,
	).Replace(`# Events

<!-- generated from the event registry (catalog.EventTypes) by go generate ./...; do not edit -->

Every change an operation (or ` + "`platformctl users create`" + `, or a
marketplace app's install or uninstall) commits makes one event of each
kind of change it makes (one for most; a contact update that changes its
tags and another field makes ` + "`ContactTagUpdate`" + ` and ` + "`ContactUpdate`" + `),
written in the change's own DynamoDB transaction: a refused request, a
failed condition, an ` + "`Idempotency-Key`" + ` replay or a write that changed
nothing makes none. Events are kept {kept}.

Each event is one flat JSON object: ` + "`type`" + `, the account's ` + "`locationId`" + `
(a company's ` + "`companyId`" + ` for users), the resource's fields as the
change's answer shows them (a credential only masked), then ` + "`webhookId`" + `
(unique: deduplicate by it), ` + "`timestamp`" + ` and ` + "`version`" + `. The names
and shapes are the public platform's where it has the event. Only a token
or an install holding the event's scope (or its ` + "`.write`" + `) may read it.
The schemas are in ` + "`api/openapi.yaml`" + `, section ` + "`webhooks`" + `.

**Who receives them.** Each receiver of an event gets one delivery of it,
signed with ` + "`{signature}`" + ` (Ed25519 over the exact body; how a receiver
checks it: [webhook-signatures.md](webhook-signatures.md)) and tried until
it answers 2xx: again after {firstRetry}, doubling up to {maxRetry} (or after
a 429's or 503's ` + "`Retry-After`" + ` when longer), for {giveUp}, then failed.
Locally, ` + "`WEBHOOK_RETRY_FOR=10m`" + ` shrinks that whole schedule alike, and
the failing limit of an endpoint below with it, so that a failure, a
disabling and a recovery can be watched in minutes (` + "`make run`" + ` says the
schedule it uses; deployed, the setting is refused: [configuration.md](configuration.md)).
A marketplace app chooses its types
(` + "`platformctl apps create --events T,U`" + `, ` + "`apps update APP_ID --events T,U`" + `) and
receives those of the accounts it is installed in, when its install holds
the event's scope (or its ` + "`.write`" + `) and it has a webhook URL, with the
app's ` + "`appId`" + ` added last (the official SDK's WebhookManager needs it).
` + "`INSTALL`" + ` and ` + "`UNINSTALL`" + ` are routed: each goes to the app it names
alone (its body names it already), whatever types the app chose, to the
webhook URL it had at the change. The table's stream wakes
the deliverer about a second after the change, which hands the event to
its receivers and makes each first attempt in that invocation; an event the
stream missed waits in one of {fanOutShards} shards of a fan-out index for the sweep
(every minute). A company's events (` + "`UserCreate`" + `) go to the apps
installed for the company (target company) that chose them and whose
install holds the scope. An operator lists an account's events with
` + "`platformctl events list --account ID`" + `. An account's admins' own endpoints (portal,
` + "`platformctl webhooks`" + `) receive every type they chose of their account,
whatever its scope (they are the account's), but for the routed ones, with
the body unchanged (no ` + "`appId`" + `), signed and retried the same way, to the
endpoint's URL as it is at each attempt, and signed the Standard Webhooks
way too, with the endpoint's own secret (` + "`webhook-id`" + `, the ` + "`webhookId`" + `;
` + "`webhook-timestamp`" + `, the attempt's; ` + "`webhook-signature`" + `), so that its receiver
refuses a delivery replayed later. An endpoint that has failed every
attempt for {giveUp} is disabled (reason ` + "`failing`" + `, an audit entry by the webhook
deliverer); its pending deliveries then end as failed without being sent,
as do a removed endpoint's, and once an admin enables it again
"redeliver failed since" sends them. The endpoint's record is written only
when its failures start or stop. Its page and
` + "`platformctl webhooks list`" + ` show it "Failing" from its first failed attempt, with its last
success and last answer; "Retry now" (` + "`platformctl webhooks retry`" + `) makes a
pending delivery due at once after its receiver is fixed, rather than at
the end of its backoff. "Send test event" (` + "`platformctl webhooks test`" + `)
sends the endpoint a ping,
` + "`{\"type\":\"WebhookTest\",\"locationId\":...,\"endpointId\":...,\"webhookId\":...,\"timestamp\":...,\"version\":1}`" + `,
signed as any delivery, to that endpoint alone: it is no change (no event
item, not in ` + "`GET /events`" + `, sent to no other receiver) and is tried once,
at the deliverer's next look (` + "`make run`" + `'s within 2 seconds, a deployed
sweep within a minute); it is listed with the endpoint's deliveries, with
its answer, and counts in its health like any attempt.

**Catching up: ` + "`GET /events?locationId=...`" + `** (an extension beyond the
spec, tagged ` + "`Extensions`" + ` and marked ` + "`x-extension: true`" + ` in
` + "`api/openapi.yaml`" + `; served by EventsFunction, package ` + "`areas/events`" + `)
lists an account's events newest first, each exactly as delivered (without
the ` + "`appId`" + ` an app's delivery adds), in ` + "`{\"events\":[...],\"meta\":{\"nextCursor\":...,\"count\":n}}`" + `.
Query: ` + "`type`" + ` (a comma list of the names below; another name is a 422
listing them), ` + "`from`" + ` (included), ` + "`to`" + ` (excluded), ` + "`startAfter`" + `
(RFC 3339 times; 422 when malformed), ` + "`limit`" + ` (1-100, default 20) and
` + "`cursor`" + ` (the previous page's ` + "`meta.nextCursor`" + `, null on the last page;
opaque, bound to its account: one that does not parse or names another
account is a 422), and ` + "`status`" + `, the event's delivery state over all its
receivers (apps and the account's own endpoints): ` + "`pending`" + ` (not yet
handed on, or a delivery is still being tried), ` + "`delivered`" + ` (every
delivery succeeded), ` + "`failed`" + ` (a delivery gave up after {giveUp}: redeliver
it from the portal or ` + "`platformctl webhooks redeliver`" + `: at most 100 a
request, the oldest first, and 500 a receiver an hour) or ` + "`unrouted`" + `
(nothing receives it). The event item counts its deliveries (made,
pending, failed): the fan-out sets them, each delivery's end and each
redelivery updates them, one write each.

`))
	b.WriteString(strings.NewReplacer(
		"{firstRetry}", clock.Span(deliveries.FirstRetry),
		"{maxRetry}", clock.Span(deliveries.MaxRetry),
		"{giveUp}", clock.Span(deliveries.GiveUp),
	).Replace(`**The order of deliveries: none is promised.** Each delivery is tried
on its own: first attempts are made several at once, as their events are
handed on, and a failed one is tried again after {firstRetry}, doubling up
to {maxRetry}, while later events go ahead. So events can arrive in
another order than they happened: after a receiver's outage, the oldest
ones typically arrive last, as their retries come due; a redelivery sends
an event again whenever it is asked for; and an event can arrive twice
(an attempt the receiver took but answered too late is tried again).
This holds per endpoint and per resource too: two changes of one record
can arrive in either order. Keeping an order would let one failing event
hold back every later one for up to its {giveUp} of retries. What a
receiver can rely on instead: deduplicate by ` + "`webhookId`" + `; ` + "`timestamp`" + ` is
when the request that made the change was handled, to the millisecond,
which orders the changes of one record unless two requests changed it at
the same moment; where a record's latest state matters, read it from the
API, which always answers it; and ` + "`GET /events`" + ` (newest first, by
` + "`timestamp`" + `) fills any gap.

`))
	b.WriteString(`*Scope, decided:* the operations table gives each operation one scope, so
the listing needs ` + "`events.readonly`" + ` (a new scope, offered in the portal
like the others); it admits the call, and each event is then shown only
if the token also holds the event's own scope (or its ` + "`.write`" + `), as for
delivery: with ` + "`events.readonly`" + ` and ` + "`contacts.readonly`" + ` a token sees
` + "`TaskDelete`" + ` but not ` + "`CouponDelete`" + `. So holding ` + "`events.readonly`" + `
alone reveals nothing, and an integration asks for it explicitly.

*Cost:* a page is one eventually consistent Query of the account's events
partition with ` + "`Limit`" + ` = limit + 1, filtered by type and scope; a filter
that keeps few events stops after 10 Queries and returns a cursor rather
than reading on. Measured on DynamoDB Local (` + "`areas/events`" + `
` + "`TestListEvents`" + `): a page of 20 events costs 2.5 read units.

| event | made by | scope |
|---|---|---|
`)
	for _, typ := range types {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", typ.Name, typ.Summary, typ.Scope)
	}
	for _, typ := range types {
		fmt.Fprintf(&b, "\n## %s\n\n%s Scope `%s`, version %d.\n\n", typ.Name, typ.Summary, typ.Scope, typ.Version)
		b.WriteString("| field | type | always |\n|---|---|---|\n")
		s := EventSchema(typ)
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		for _, p := range s.Properties {
			always := ""
			if required[p.Name] {
				always = "yes"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.Name, typeName(p.Schema), always)
		}
	}
	return b.String()
}

func typeName(s Schema) string {
	switch {
	case s.Type == "":
		return "any"
	case s.Items != nil:
		return "array of " + typeName(*s.Items)
	case s.Values != nil:
		return "object of " + typeName(*s.Values)
	case s.Type == "object":
		names := make([]string, len(s.Properties))
		for i, p := range s.Properties {
			names[i] = p.Name
		}
		sort.Strings(names)
		if len(names) > 6 {
			names = append(names[:6], "…")
		}
		return "object (" + strings.Join(names, ", ") + ")"
	}
	return s.Type
}
