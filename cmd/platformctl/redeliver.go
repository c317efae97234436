package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
)

// redeliveryArgs are the flags of apps redeliver and webhooks redeliver:
// one delivery (--event), or every failed one since a time
// (--failed-since), after a receiver was down for longer than its retries.
type redeliveryArgs struct{ event, failedSince *string }

func redeliveryFlags(fs *flag.FlagSet) redeliveryArgs {
	return redeliveryArgs{
		event:       fs.String("event", "", "the webhookId of the delivery to send again"),
		failedSince: fs.String("failed-since", "", "RFC 3339 time: send again every failed delivery made since it"),
	}
}

// redeliver sends again what the flags name with do (an app's or an
// endpoint's Redeliver) and says what it queued; usage makes the
// command's usage error.
func (c *cli) redeliver(r redeliveryArgs, usage func(msg string) error, do func(deliveries.Redelivery) (deliveries.Redelivered, error)) error {
	if (*r.event == "") == (*r.failedSince == "") {
		return usage("give --event or --failed-since")
	}
	if *r.event != "" {
		if _, err := do(deliveries.Redelivery{Event: *r.event}); err != nil {
			return err
		}
		fmt.Fprintf(c.out, "delivery %s queued again\n", *r.event)
		return nil
	}
	since, err := time.Parse(time.RFC3339, *r.failedSince)
	if err != nil {
		return usage("--failed-since must be an RFC 3339 time (2026-11-27T10:00:00Z)")
	}
	done, err := do(deliveries.Redelivery{FailedSince: since})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s since %s queued again%s\n", failedDeliveries(done.Queued), since.UTC().Format(time.RFC3339), leftOver(done))
	return nil
}

// leftOver says which failed deliveries a redelivery left for a later one,
// and when to ask: "" when none.
func leftOver(done deliveries.Redelivered) string {
	switch {
	case done.Left == 0:
		return ""
	case done.HourFull:
		return fmt.Sprintf("; %d more stay failed: a receiver's deliveries are sent again at most %d times an hour, run it again after %s",
			done.Left, deliveries.RedeliverPerHour, done.Until.UTC().Format("15:04 UTC"))
	default:
		return fmt.Sprintf("; %d more stay failed: one run sends at most %d, run it again for the next",
			done.Left, deliveries.RedeliverPerRequest)
	}
}

// failedDeliveries counts n failed deliveries in words.
func failedDeliveries(n int) string {
	if n == 1 {
		return "1 failed delivery"
	}
	return fmt.Sprintf("%d failed deliveries", n)
}

// orList writes names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
