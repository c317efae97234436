package marketplace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/scopes"
)

// What an app can receive. An app receives an event type it chose from an
// install whose scopes read the type (events.Readable), through its webhook
// URL; a company's event (events.Type.OfCompany) only from an install for
// the company (target company); INSTALL and UNINSTALL (routed) of its own
// installs whatever it chose. The deliverer applies the same rules
// (deliveries.Receiver, ReceiversOf); here they check an app's choice when
// it is made, and tell an admin on the consent page what the app will
// receive.

// Receivable is an event type an install sends its app, with the install's
// scopes that carry it (none for a routed type, which needs no scope).
type Receivable struct {
	Type   events.Type
	Scopes []string
}

// Receives is what the app receives from an install holding granted: the
// types it chose that granted reads (a company's only for a company app),
// in the registry's order, then INSTALL and UNINSTALL; nothing when it has
// no webhook URL.
func (app App) Receives(granted []string) []Receivable {
	if app.WebhookURL == "" {
		return nil
	}
	var chosen, routed []Receivable
	for _, typ := range events.Registry {
		switch {
		case typ.Routed:
			routed = append(routed, Receivable{Type: typ})
		case slices.Contains(app.Events, typ.Name) && (!typ.OfCompany || app.Target == TargetCompany):
			if carriers := carriersOf(typ, granted); len(carriers) > 0 {
				chosen = append(chosen, Receivable{Type: typ, Scopes: carriers})
			}
		}
	}
	return append(chosen, routed...)
}

// carriersOf are the scopes of granted that read typ.
func carriersOf(typ events.Type, granted []string) []string {
	var out []string
	for _, s := range granted {
		if events.Readable([]string{s}, typ.Scope) {
			out = append(out, s)
		}
	}
	return out
}

// readers are the scopes that read an event of typ: its scope, and the
// .write of its resource where the vocabulary has one.
func readers(typ events.Type) []string {
	out := []string{typ.Scope}
	if base, ok := strings.CutSuffix(typ.Scope, ".readonly"); ok && scopes.Known(base+".write") {
		out = append(out, base+".write")
	}
	return out
}

// eventProblems are the reasons app could never receive each of the types
// it chooses, one a type (none when it can receive every one). Its scopes,
// target and webhook URL are fixed when it is created, so a type refused
// here could never reach it: stored, it would only hide the mistake.
func eventProblems(app App) []string {
	var out []string
	if len(app.Events) > 0 && app.WebhookURL == "" {
		out = append(out, "events need a webhook-url: an app without one receives no event")
	}
	for _, name := range app.Events {
		if !slices.Contains(events.AppTypes(), name) {
			out = append(out, fmt.Sprintf("%q is not an event type an app chooses (docs/events.md lists them; INSTALL and UNINSTALL reach every app)", name))
			continue
		}
		typ := events.Registry[slices.IndexFunc(events.Registry, func(t events.Type) bool { return t.Name == name })]
		if typ.OfCompany && app.Target != TargetCompany {
			out = append(out, fmt.Sprintf("%q is a company's event, which an app installed per account (target location) never receives: only an app of target company does", name))
			continue
		}
		if len(carriersOf(typ, app.Scopes)) == 0 {
			out = append(out, fmt.Sprintf("%q needs the scope %s, which the app does not ask for: it would never receive it", name, orScopes(readers(typ))))
		}
	}
	return out
}

// orScopes writes scopes as "a or b".
func orScopes(list []string) string { return strings.Join(list, " or ") }
