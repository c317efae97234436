// Package scopes is the vocabulary of token scopes: the values the spec
// lists (with its neutral words in place of brand names: searchAds, socialAds,
// networkA..C, cms, productA, productB) plus the scopes of the operation
// table and of the OAuth server's operations. A token may only be created with scopes from this list.
package scopes

import (
	"slices"
	"sort"
	"sync"

	"github.com/bizplatform/api/shared/operations"
)

// specScopes are the scope values listed by the spec, in its order.
var specScopes = []string{
	"campaigns.readonly",
	"campaigns.write",
	"calendars.readonly",
	"calendars/events.write",
	"calendars/groups.write",
	"calendars.write",
	"contacts.write",
	"contacts/bulkActions.write",
	"workflows.readonly",
	"workflows.write",
	"triggers.write",
	"funnels.write",
	"forms.write",
	"surveys.write",
	"quizzes.write",
	"websites.write",
	"medias.write",
	"medias.readonly",
	"opportunities.write",
	"opportunities/leadValue.readonly",
	"opportunities/bulkActions.write",
	"reporting/phone.readonly",
	"reporting/searchAds.readonly",
	"reporting/socialAds.readonly",
	"reporting/attributions.readonly",
	"prospecting/auditReport.write",
	"reporting/reports.readonly",
	"reporting/agent.readonly",
	"reporting/reports.write",
	"reporting/stats.export",
	"payments.write",
	"payments/records.write",
	"payments/orders.readonly",
	"payments/orders.export",
	"payments/orders.import",
	"payments/orders.collectPayment",
	"payments/subscriptions.readonly",
	"payments/subscriptions.write",
	"payments/subscriptions.update",
	"payments/subscriptions.export",
	"payments/subscriptions.pauseResumeCancel",
	"payments/subscriptions.sharePaymentMethod",
	"payments/transactions.readonly",
	"payments/transactions.export",
	"payments/transactions.import",
	"payments/transactions.refund",
	"payments/transactions.viewReceipts",
	"payments/taxesSettings.readonly",
	"payments/settings.readonly",
	"payments/taxesSettings.updateInclusiveExclusive",
	"payments/taxesSettings.manageRates",
	"payments/taxesSettings.configureAutomatic",
	"products.readonly",
	"products.write",
	"products.delete",
	"products.duplicate",
	"products.bulkActions",
	"payments/settings.write",
	"payments/settings.configureReceipt",
	"payments/settings.configureSubscription",
	"invoices.write",
	"invoices.readonly",
	"invoices/schedule.readonly",
	"invoices/schedule.write",
	"invoices/template.readonly",
	"invoices/template.write",
	"reputation/review.write",
	"reputation/listing.write",
	"reputation/reviewsAIAgents.write",
	"reputation/gbp.write",
	"conversations.write",
	"conversations.readonly",
	"conversations/message.readonly",
	"conversations/message.write",
	"contentAI.write",
	"dashboard/stats.readonly",
	"locations/tags.write",
	"locations/tags.readonly",
	"marketing.write",
	"productA.write",
	"settings.write",
	"socialplanner/post.write",
	"socialplanner/account.readonly",
	"socialplanner/account.write",
	"socialplanner/category.readonly",
	"socialplanner/category.write",
	"socialplanner/csv.readonly",
	"socialplanner/csv.write",
	"socialplanner/group.write",
	"socialplanner/hashtag.readonly",
	"socialplanner/hashtag.write",
	"socialplanner/oauth.readonly",
	"socialplanner/oauth.write",
	"socialplanner/post.readonly",
	"socialplanner/recurring.readonly",
	"socialplanner/recurring.write",
	"socialplanner/review.readonly",
	"socialplanner/review.write",
	"socialplanner/rss.readonly",
	"socialplanner/rss.write",
	"socialplanner/search.readonly",
	"socialplanner/setting.readonly",
	"socialplanner/setting.write",
	"socialplanner/stat.readonly",
	"socialplanner/tag.readonly",
	"socialplanner/tag.write",
	"socialplanner/filters.readonly",
	"socialplanner/medias.readonly",
	"socialplanner/medias.write",
	"socialplanner/watermarks.readonly",
	"socialplanner/watermarks.write",
	"socialplanner/metatag.readonly",
	"socialplanner/networkA.readonly",
	"socialplanner/networkB.readonly",
	"socialplanner/networkC.readonly",
	"socialplanner/notification.readonly",
	"socialplanner/notification.write",
	"socialplanner/snapshot.readonly",
	"socialplanner/snapshot.write",
	"marketing/affiliate.write",
	"blogs.write",
	"membership.write",
	"communities.write",
	"productB.write",
	"certificates.write",
	"certificates.readonly",
	"adPublishing.write",
	"adPublishing.readonly",
	"prospecting.write",
	"prospecting.readonly",
	"prospecting/reports.readonly",
	"private-integration-account.readonly",
	"private-integration-account.write",
	"private-integration-company.readonly",
	"private-integration-company.write",
	"native-integrations.readonly",
	"native-integrations.write",
	"cms.write",
	"cms.read",
	"custom-menu-link.write",
	"qrcodes.write",
	"users/team-management.write",
	"users/team-management.readonly",
	"loginas.write",
	"users-sso-login-management.write",
	"users-sso-login-management.readonly",
	"sso-config.write",
	"snapshots/api.readonly",
	"snapshots/api.create",
	"snapshots/api.edit",
	"snapshots/api.push",
	"snapshots/api.refresh",
	"snapshots/api.share",
	"snapshots/api.delete",
	"internaltools.account-transfer.write",
	"internaltools.account-transfer.readonly",
	"affiliateportal.write",
	"affiliateportal.readonly",
	"companies.write",
	"internaltools.billing.write",
	"internaltools.billing.readonly",
	"internaltools.billing-common.readonly",
	"internaltools.billing-common.write",
	"voice-ai-agents.write",
	"voice-ai-agents.readonly",
	"voice-ai-common.readonly",
	"voice-ai-common.write",
	"voice-ai-agent-goals.readonly",
	"voice-ai-agent-goals.write",
	"voice-ai-dashboard.readonly",
	"agency/launchpad.write",
	"agency/launchpad.readonly",
	"launchpad/account.write",
	"launchpad/account.readonly",
	"text-ai-agents.write",
	"text-ai-agent-goals.readonly",
	"text-ai-agent-goals.write",
	"text-ai-agent-training.write",
	"text-ai-agents-dashboard.readonly",
	"accounts.create",
	"accounts.delete",
	"accounts.export.list",
	"accounts.features-limits.manage",
	"accounts.pause-resume",
	"accounts.agency-accounts.manage",
	"accounts.billing.manage",
	"accounts.details.manage",
	"audit-logs.readonly",
	"audit-logs.export",
	"contacts.readonly",
}

// OAuthScopes are the scopes of the OAuth server's company-token
// operations (/oauth/locationToken, /oauth/installedLocations), the public
// platform's: marketplace apps that install into a company ask for them.
var OAuthScopes = []string{"oauth.readonly", "oauth.write"}

// known is built on first use, not at every cold start.
var known = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(specScopes)+len(operations.All)+len(OAuthScopes))
	for _, s := range specScopes {
		m[s] = true
	}
	for _, s := range OAuthScopes {
		m[s] = true
	}
	for _, op := range operations.All {
		m[op.Scope] = true
	}
	return m
})

// Known reports whether s is a scope of the vocabulary.
func Known(s string) bool { return known()[s] }

// All returns the whole vocabulary, sorted.
func All() []string {
	all := make([]string, 0, len(known()))
	for s := range known() {
		all = append(all, s)
	}
	sort.Strings(all)
	return all
}

// OfOperations returns the scopes the operation table needs, sorted and
// without repeats: the set a token needs to call every operation.
func OfOperations() []string {
	var out []string
	for _, op := range operations.All {
		out = append(out, op.Scope)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
