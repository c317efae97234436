// Code generated from the event registry (catalog.EventTypes) by go generate ./...; DO NOT EDIT.

package events

// Types are the event registry's types, in its order.
var Types = []Type{
	{Name: "TaskDelete", Scope: "contacts.readonly"},
	{Name: "CouponDelete", Scope: "payments/coupons.write"},
	{Name: "WhitelabelProviderCreate", Scope: "payments/integration.write"},
	{Name: "InventoryUpdate", Scope: "products/prices.write"},
	{Name: "ShippingZoneUpdate", Scope: "products.readonly"},
	{Name: "ShippingRateUpdate", Scope: "products.readonly"},
	{Name: "CustomFieldUpdate", Scope: "locations/customFields.write"},
	{Name: "AssociationCreate", Scope: "associations.write"},
	{Name: "RelationCreate", Scope: "associations/relation.write"},
	{Name: "BrandBoardCreate", Scope: "brand-boards/design-kit.write"},
	{Name: "EmailTemplateCreate", Scope: "emails/builder.write"},
	{Name: "VoiceAiActionUpdate", Scope: "voice-ai-agent-goals.readonly"},
	{Name: "MediaFileUpdate", Scope: "medias.readonly"},
	{Name: "MediaFolderUpdate", Scope: "medias.readonly"},
	{Name: "UserCreate", Scope: "users.readonly"},
	{Name: "SocialAdsIntegrationDelete", Scope: "adPublishing.readonly"},
}
