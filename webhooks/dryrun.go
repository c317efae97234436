package webhooks

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

// DryRun proves the deliverer works without delivering anything: its
// signing key was loaded at start, and it reads the first due event of one
// partition of the due index, changing nothing. The deploy hook checks a
// new version with it (shared/dryrun), never with a real sweep.
func (d *Deliverer) DryRun(ctx context.Context) error {
	due := expression.Key(storage.AttrGSI1PK).Equal(expression.Value(marketplace.DuePKs()[0]))
	_, _, err := storage.QueryPage[marketplace.EventItem](ctx, d.table, storage.Query{Index: storage.IndexGSI1, Key: due}, 1, nil)
	return err
}
