package campaigns

import "github.com/bizplatform/api/shared/storage"

// Campaign is a campaign as the list shows it.
type Campaign struct {
	ID         string `dynamodbav:"id" json:"id"`
	Name       string `dynamodbav:"name" json:"name"`
	Status     string `dynamodbav:"status" json:"status"`
	LocationID string `dynamodbav:"locationId" json:"locationId"`
}

// Campaign statuses. The spec shows draft and published and leaves the
// complete set open; these are the only ones a campaign here can have.
const (
	StatusDraft     = "draft"
	StatusPublished = "published"
)

// Statuses are the values of Campaign.Status.
var Statuses = []string{StatusDraft, StatusPublished}

// Catalog is the accounts' campaigns. Campaigns are stored by id in their
// account's partition; the list reads them in that (sort key) order. The
// list has no paging (the public API answers the whole list), so it reads
// them all.
type Catalog = storage.AccountItems[Campaign]

// NewCatalog returns the campaigns on table.
func NewCatalog(table *storage.Table) *Catalog {
	// Read eventually: no operation writes campaigns (a seed loads them).
	return storage.NewAccountItems(table, "CAMPAIGN#", func(c Campaign) (string, string) { return c.LocationID, c.ID }).ReadEventually()
}
