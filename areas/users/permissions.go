package users

// Permissions are a user's feature flags, all 38 of the public API's
// PermissionsDto. Two flags carry the spec's neutral words in place of ad
// network names: searchAdsReportingEnabled and socialAdsReportingEnabled.
type Permissions struct {
	CampaignsEnabled             bool `dynamodbav:"campaignsEnabled" json:"campaignsEnabled"`
	CampaignsReadOnly            bool `dynamodbav:"campaignsReadOnly" json:"campaignsReadOnly"`
	ContactsEnabled              bool `dynamodbav:"contactsEnabled" json:"contactsEnabled"`
	WorkflowsEnabled             bool `dynamodbav:"workflowsEnabled" json:"workflowsEnabled"`
	WorkflowsReadOnly            bool `dynamodbav:"workflowsReadOnly" json:"workflowsReadOnly"`
	TriggersEnabled              bool `dynamodbav:"triggersEnabled" json:"triggersEnabled"`
	FunnelsEnabled               bool `dynamodbav:"funnelsEnabled" json:"funnelsEnabled"`
	WebsitesEnabled              bool `dynamodbav:"websitesEnabled" json:"websitesEnabled"`
	OpportunitiesEnabled         bool `dynamodbav:"opportunitiesEnabled" json:"opportunitiesEnabled"`
	DashboardStatsEnabled        bool `dynamodbav:"dashboardStatsEnabled" json:"dashboardStatsEnabled"`
	BulkRequestsEnabled          bool `dynamodbav:"bulkRequestsEnabled" json:"bulkRequestsEnabled"`
	AppointmentsEnabled          bool `dynamodbav:"appointmentsEnabled" json:"appointmentsEnabled"`
	ReviewsEnabled               bool `dynamodbav:"reviewsEnabled" json:"reviewsEnabled"`
	OnlineListingsEnabled        bool `dynamodbav:"onlineListingsEnabled" json:"onlineListingsEnabled"`
	PhoneCallEnabled             bool `dynamodbav:"phoneCallEnabled" json:"phoneCallEnabled"`
	ConversationsEnabled         bool `dynamodbav:"conversationsEnabled" json:"conversationsEnabled"`
	AssignedDataOnly             bool `dynamodbav:"assignedDataOnly" json:"assignedDataOnly"`
	SearchAdsReportingEnabled    bool `dynamodbav:"searchAdsReportingEnabled" json:"searchAdsReportingEnabled"`
	MembershipEnabled            bool `dynamodbav:"membershipEnabled" json:"membershipEnabled"`
	SocialAdsReportingEnabled    bool `dynamodbav:"socialAdsReportingEnabled" json:"socialAdsReportingEnabled"`
	AttributionsReportingEnabled bool `dynamodbav:"attributionsReportingEnabled" json:"attributionsReportingEnabled"`
	SettingsEnabled              bool `dynamodbav:"settingsEnabled" json:"settingsEnabled"`
	TagsEnabled                  bool `dynamodbav:"tagsEnabled" json:"tagsEnabled"`
	LeadValueEnabled             bool `dynamodbav:"leadValueEnabled" json:"leadValueEnabled"`
	MarketingEnabled             bool `dynamodbav:"marketingEnabled" json:"marketingEnabled"`
	AgentReportingEnabled        bool `dynamodbav:"agentReportingEnabled" json:"agentReportingEnabled"`
	BotService                   bool `dynamodbav:"botService" json:"botService"`
	SocialPlanner                bool `dynamodbav:"socialPlanner" json:"socialPlanner"`
	BloggingEnabled              bool `dynamodbav:"bloggingEnabled" json:"bloggingEnabled"`
	InvoiceEnabled               bool `dynamodbav:"invoiceEnabled" json:"invoiceEnabled"`
	AffiliateManagerEnabled      bool `dynamodbav:"affiliateManagerEnabled" json:"affiliateManagerEnabled"`
	ContentAIEnabled             bool `dynamodbav:"contentAiEnabled" json:"contentAiEnabled"`
	RefundsEnabled               bool `dynamodbav:"refundsEnabled" json:"refundsEnabled"`
	RecordPaymentEnabled         bool `dynamodbav:"recordPaymentEnabled" json:"recordPaymentEnabled"`
	CancelSubscriptionEnabled    bool `dynamodbav:"cancelSubscriptionEnabled" json:"cancelSubscriptionEnabled"`
	PaymentsEnabled              bool `dynamodbav:"paymentsEnabled" json:"paymentsEnabled"`
	CommunitiesEnabled           bool `dynamodbav:"communitiesEnabled" json:"communitiesEnabled"`
	ExportPaymentsEnabled        bool `dynamodbav:"exportPaymentsEnabled" json:"exportPaymentsEnabled"`
}

// DefaultPermissions are the flags a user has unless set otherwise: the
// public API's defaults (everything on except the read-only modes,
// websites, assigned-data-only, the ad and attribution reports, membership
// and the bot service).
func DefaultPermissions() Permissions {
	return Permissions{
		CampaignsEnabled:          true,
		ContactsEnabled:           true,
		WorkflowsEnabled:          true,
		TriggersEnabled:           true,
		FunnelsEnabled:            true,
		OpportunitiesEnabled:      true,
		DashboardStatsEnabled:     true,
		BulkRequestsEnabled:       true,
		AppointmentsEnabled:       true,
		ReviewsEnabled:            true,
		OnlineListingsEnabled:     true,
		PhoneCallEnabled:          true,
		ConversationsEnabled:      true,
		SettingsEnabled:           true,
		TagsEnabled:               true,
		LeadValueEnabled:          true,
		MarketingEnabled:          true,
		AgentReportingEnabled:     true,
		SocialPlanner:             true,
		BloggingEnabled:           true,
		InvoiceEnabled:            true,
		AffiliateManagerEnabled:   true,
		ContentAIEnabled:          true,
		RefundsEnabled:            true,
		RecordPaymentEnabled:      true,
		CancelSubscriptionEnabled: true,
		PaymentsEnabled:           true,
		CommunitiesEnabled:        true,
		ExportPaymentsEnabled:     true,
	}
}
