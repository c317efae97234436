package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/deliveries"
)

// The CLI's listings page as GET /events does: newest first, a page at a
// time, --limit items, --cursor naming where the next page starts (the
// cursor a page printed on stderr).

// renamedFlags refuses a flag a command no longer takes under that name,
// naming the one it takes now: no alias, so that one name is used and a
// script written with the old one fails at once with the fix.
func renamedFlags(cmd string, args []string, renamed map[string]string) error {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if now, ok := renamed[name]; ok {
			return usageError{cmd, fmt.Sprintf("--%s is now --%s", name, now)}
		}
	}
	return nil
}

// deliveryPage is the flags of a listing of deliveries (apps deliveries,
// webhooks deliveries).
type deliveryPage struct {
	status, cursor *string
	limit          *int
}

// deliveryFlags defines the flags of a listing of deliveries on fs.
func deliveryFlags(fs *flag.FlagSet) deliveryPage {
	return deliveryPage{
		status: fs.String("status", "", "only deliveries in this status: "+orList(deliveries.Strings(deliveries.States))),
		limit:  fs.Int("limit", 50, "deliveries per page, 1 to 1000"),
		cursor: fs.String("cursor", "", "the cursor a previous page printed"),
	}
}

// deliveryRenames are the flags the listings of deliveries renamed.
var deliveryRenames = map[string]string{"before": "cursor"}

// state checks the flags' values and returns the status asked ("": any).
func (p deliveryPage) state(cmd string) (deliveries.State, error) {
	state := deliveries.State(*p.status)
	if state != "" && !slices.Contains(deliveries.States, state) {
		return "", usageError{cmd, "--status must be " + orList(deliveries.Strings(deliveries.States))}
	}
	if *p.limit < 1 || *p.limit > 1000 {
		return "", usageError{cmd, "--limit must be 1 to 1000"}
	}
	return state, nil
}

// printDeliveryPage writes a page of deliveries, newest first, and on
// stderr how many and the next page's cursor.
func (c *cli) printDeliveryPage(page []deliveries.Delivery, next string) error {
	if err := c.printDeliveries(page); err != nil {
		return err
	}
	c.printNext(len(page), "deliveries", next)
	return nil
}

// printNext says on stderr how many items a page had and how to ask for
// the next one.
func (c *cli) printNext(n int, what, next string) {
	if next != "" {
		fmt.Fprintf(c.errOut, "%d %s; the next page: --cursor '%s'\n", n, what, next)
	} else {
		fmt.Fprintf(c.errOut, "%d %s; no older one\n", n, what)
	}
}
