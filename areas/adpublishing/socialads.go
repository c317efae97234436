package adpublishing

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/events"
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

// SocialIntegration returns the account's social ad integration, or nil.
func (s *Ads) SocialIntegration(ctx context.Context, accountID string) (*SocialIntegration, error) {
	return s.social.Get(ctx, accountID, "")
}

// SocialIntegrationDeleted is the event of a removed social ad integration:
// the integration as it was.
var SocialIntegrationDeleted = events.Type{
	Name: "SocialAdsIntegrationDelete", Scope: "adPublishing.readonly", Version: 1,
	Summary: "The account's social ads integration was removed (DELETE /ad-publishing/socialads/integration).",
	Fields:  SocialIntegration{},
}

// DeleteSocialIntegration removes the account's social ad integration, with
// its SocialAdsIntegrationDelete event; it reports false when the account
// has none. The delete is conditional on the integration read, so of two
// concurrent deletes exactly one reports true (and makes the event).
func (s *Ads) DeleteSocialIntegration(ctx context.Context, accountID string, at time.Time) (bool, error) {
	return s.social.DeleteAlong(ctx, accountID, "", func(tx *storage.Tx, old SocialIntegration) {
		SocialIntegrationDeleted.Add(tx, events.Owner{LocationID: accountID}, old, at)
	})
}
