package webhooks

import (
	"context"

	"github.com/bizplatform/api/shared/deliveries"
)

// DryRun proves the deliverer works without delivering anything: its
// signing key was loaded at start, and it reads the first due delivery of
// one shard of the due index, changing nothing. The deploy hook checks a
// new version with it (shared/dryrun), never with a real sweep.
func (d *Deliverer) DryRun(ctx context.Context) error {
	_, err := deliveries.Due(ctx, d.table, 0, d.clock.Now(), 1)
	return err
}
