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

// listEvents prints an account's (or a company's) events, newest first,
// one JSON body a line on stdout, exactly as signed; the cursor of the next
// page goes to stderr. An operator's view: every type, whatever the scopes.
func (c *cli) listEvents(ctx context.Context, args []string) error {
	states := deliveries.Strings(deliveries.EventStates)
	fs := c.flags("events list")
	account := fs.String("account", "", "the account whose events to list")
	company := fs.String("company", "", "the company whose events to list (users)")
	types := fs.String("type", "", "event types, comma-separated (all when empty)")
	since := fs.String("since", "", "RFC 3339 time: events at or after it")
	until := fs.String("until", "", "RFC 3339 time: events before it")
	limit := fs.Int("limit", 50, "events per page, 1 to 1000")
	after := fs.String("after", "", "the cursor a previous page printed")
	status := fs.String("status", "", "delivery state: "+orList(states)+" (all when empty)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if (*account == "") == (*company == "") {
		return usageError{"events list", "give --account or --company"}
	}
	if *limit < 1 || *limit > 1000 {
		return usageError{"events list", "--limit must be 1 to 1000"}
	}
	var f events.Filter
	switch {
	case *status == "":
	case slices.Contains(states, *status):
		in := deliveries.EventIn(deliveries.State(*status))
		f.Matching = &in
	default:
		return usageError{"events list", "--status must be one of: " + strings.Join(states, ", ")}
	}
	if *types != "" {
		for _, t := range strings.Split(*types, ",") {
			f.Types = append(f.Types, strings.TrimSpace(t))
		}
	}
	var err error
	if f.Since, err = timeFlag(fs, "since", *since); err != nil {
		return err
	}
	if f.Until, err = timeFlag(fs, "until", *until); err != nil {
		return err
	}
	owner := events.Owner{LocationID: *account, CompanyID: *company}
	page, next, err := events.Page(ctx, c.deps.Table, owner, f, int32(*limit), *after)
	if errors.Is(err, events.ErrBadCursor) {
		return usageError{"events list", "--after is not a cursor events list printed"}
	}
	if err != nil {
		return err
	}
	for _, e := range page {
		fmt.Fprintln(c.out, e.Body)
	}
	if next != "" {
		fmt.Fprintf(c.errOut, "%d events; the next page: --after '%s'\n", len(page), next)
	} else {
		fmt.Fprintf(c.errOut, "%d events; no older one\n", len(page))
	}
	return nil
}

func timeFlag(fs *flag.FlagSet, name, value string) (time.Time, error) {
	if value == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		return time.Time{}, usageError{fs.Name(), "--" + name + " must be an RFC 3339 time (2026-11-27T10:00:00Z)"}
	}
	return t, nil
}
