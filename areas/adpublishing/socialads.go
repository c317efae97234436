package adpublishing

import (
	"context"
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

// DeleteSocialIntegration removes the account's social ad integration; it
// reports false when the account has none. The delete is conditional, so of
// two concurrent deletes exactly one reports true.
func (s *Ads) DeleteSocialIntegration(ctx context.Context, accountID string) (bool, error) {
	return s.social.Delete(ctx, accountID, "")
}
