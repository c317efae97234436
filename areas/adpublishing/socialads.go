package adpublishing

import (
	"context"

	"github.com/bizplatform/api/shared/storage"
)

// SocialIntegration is an account's connection to the social ad network: the
// ad account and page it publishes through. An account has at most one.
type SocialIntegration struct {
	ID            string `dynamodbav:"id" json:"id"`
	LocationID    string `dynamodbav:"locationId" json:"locationId"`
	AdAccountID   string `dynamodbav:"adAccountId" json:"adAccountId"`
	AdAccountName string `dynamodbav:"adAccountName,omitempty" json:"adAccountName,omitempty"`
	PageID        string `dynamodbav:"pageId,omitempty" json:"pageId,omitempty"`
	PageName      string `dynamodbav:"pageName,omitempty" json:"pageName,omitempty"`
	ConnectedAt   string `dynamodbav:"connectedAt" json:"connectedAt"`
}

// The integration is a singleton of the account's partition: its key holds no
// id, so "one per account" is the key schema's doing, not a check's.
func socialIntegrationKey(accountID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "SOCIALADS_INTEGRATION"}
}

type socialIntegrationItem struct {
	storage.Key
	SocialIntegration
}

func newSocialIntegrationItem(i SocialIntegration) socialIntegrationItem {
	return socialIntegrationItem{Key: socialIntegrationKey(i.LocationID), SocialIntegration: i}
}

// SocialIntegration returns the account's social ad integration, or nil.
func (s *Ads) SocialIntegration(ctx context.Context, accountID string) (*SocialIntegration, error) {
	item, err := storage.Get[socialIntegrationItem](ctx, s.table, socialIntegrationKey(accountID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.SocialIntegration, nil
}

// DeleteSocialIntegration removes the account's social ad integration; it
// reports false when the account has none. The delete is conditional, so of
// two concurrent deletes exactly one reports true.
func (s *Ads) DeleteSocialIntegration(ctx context.Context, accountID string) (bool, error) {
	err := s.table.Delete(ctx, socialIntegrationKey(accountID), storage.ItemExists())
	if storage.IsConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}
