package campaigns

import (
	"context"

	"github.com/bizplatform/api/shared/storage"
)

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

// Campaigns are stored by id in their account's partition; the list reads
// them in that (sort key) order.
func campaignKey(accountID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: campaignPrefix + id}
}

const campaignPrefix = "CAMPAIGN#"

type campaignItem struct {
	storage.Key
	Campaign
}

// Catalog reads and writes campaigns.
type Catalog struct {
	table *storage.Table
}

// NewCatalog returns the catalog on table.
func NewCatalog(table *storage.Table) *Catalog { return &Catalog{table: table} }

// Get returns the account's campaign, or nil when it has none with that id.
func (s *Catalog) Get(ctx context.Context, accountID, id string) (*Campaign, error) {
	item, err := storage.Get[campaignItem](ctx, s.table, campaignKey(accountID, id))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Campaign, nil
}

// List returns every campaign of the account, ordered by id. The list has
// no paging (the public API answers the whole list), so it reads them all.
func (s *Catalog) List(ctx context.Context, accountID string) ([]Campaign, error) {
	items, err := storage.QueryPartition[campaignItem](ctx, s.table, storage.AccountPK(accountID), campaignPrefix)
	if err != nil {
		return nil, err
	}
	campaigns := make([]Campaign, len(items))
	for i, it := range items {
		campaigns[i] = it.Campaign
	}
	return campaigns, nil
}
