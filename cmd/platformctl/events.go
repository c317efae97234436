package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
)

// eventsRenames are the flags events list took before it named them as GET
// /events names its query parameters.
var eventsRenames = map[string]string{"since": "from", "until": "to", "after": "cursor"}

// listEvents prints an account's (or a company's) events, newest first,
// one JSON body a line on stdout, exactly as signed; the cursor of the next
// page goes to stderr. An operator's view: every type, whatever the scopes.
// Its flags are GET /events' query parameters.
func (c *cli) listEvents(ctx context.Context, args []string) error {
	const cmd = "events list"
	if err := renamedFlags(cmd, args, eventsRenames); err != nil {
		return err
	}
	states := deliveries.Strings(deliveries.EventStates)
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account whose events to list")
	company := fs.String("company", "", "the company whose events to list (users)")
	types := fs.String("type", "", "event types, comma-separated (all when empty)")
	from := fs.String("from", "", "RFC 3339 time: events at or after it")
	to := fs.String("to", "", "RFC 3339 time: events before it")
	startAfter := fs.String("start-after", "", "RFC 3339 time: events after it (the last timestamp seen)")
	limit := fs.Int("limit", 50, "events per page, 1 to 1000")
	cursor := fs.String("cursor", "", "the cursor a previous page printed")
	status := fs.String("status", "", "delivery state: "+orList(states)+" (all when empty)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{cmd, fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if (*account == "") == (*company == "") {
		return usageError{cmd, "give --account or --company"}
	}
	if *limit < 1 || *limit > 1000 {
		return usageError{cmd, "--limit must be 1 to 1000"}
	}
	var f events.Filter
	switch {
	case *status == "":
	case slices.Contains(states, *status):
		in := deliveries.EventIn(deliveries.State(*status))
		f.Matching = &in
	default:
		return usageError{cmd, "--status must be one of: " + strings.Join(states, ", ")}
	}
	var err error
	if f.Types, err = ownersTypes(splitList(*types), *company != ""); err != nil {
		return err
	}
	if f.Since, err = timeFlag(fs, "from", *from); err != nil {
		return err
	}
	if f.Until, err = timeFlag(fs, "to", *to); err != nil {
		return err
	}
	after, err := timeFlag(fs, "start-after", *startAfter)
	if err != nil {
		return err
	}
	if !after.IsZero() {
		f.StartAfter(after)
	}
	owner := events.Owner{LocationID: *account, CompanyID: *company}
	page, next, err := events.Page(ctx, c.deps.Table, owner, f, int32(*limit), *cursor)
	if errors.Is(err, events.ErrBadCursor) {
		return usageError{cmd, "--cursor is not a cursor events list printed"}
	}
	if err != nil {
		return err
	}
	for _, e := range page {
		fmt.Fprintln(c.out, e.Body)
	}
	c.printNext(len(page), "events", next)
	return nil
}

// ownersTypes checks names against the registry's types of the owner: an
// account's (company false) or a company's. A name of neither, or of the
// other owner's, would list nothing: a usage error saying which to give.
func ownersTypes(names []string, company bool) ([]string, error) {
	for _, name := range names {
		i := slices.IndexFunc(events.Registry, func(t events.Type) bool { return t.Name == name })
		switch {
		case i < 0:
			return nil, usageError{"events list", fmt.Sprintf("%q is not an event type (one of: %s)", name, strings.Join(events.Names(events.Registry), ", "))}
		case events.Registry[i].OfCompany && !company:
			return nil, usageError{"events list", fmt.Sprintf("%q is a company's event: list it with --company", name)}
		case !events.Registry[i].OfCompany && company:
			return nil, usageError{"events list", fmt.Sprintf("%q is an account's event: list it with --account", name)}
		}
	}
	return names, nil
}

func timeFlag(fs *flag.FlagSet, name, value string) (time.Time, error) {
	if value == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, value)
	if err != nil {
		return time.Time{}, usageError{fs.Name(), "--" + name + " must be an RFC 3339 time (2026-11-27T10:00:00Z)"}
	}
	return t, nil
}
