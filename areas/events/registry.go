// Code generated from the event registry (catalog.EventTypes) by go generate ./...; DO NOT EDIT.

package events

// Types are the event registry's types, in its order.
var Types = []Type{
	{Name: "TaskDelete", Scope: "contacts.readonly", Summary: "A contact's task was deleted (DELETE /contacts/{contactId}/tasks/{taskId})."},
	{Name: "ContactCreate", Scope: "contacts.readonly", Summary: "A contact was created (POST /contacts/, or POST /contacts/upsert finding none)."},
	{Name: "ContactUpdate", Scope: "contacts.readonly", Summary: "A contact's fields other than its tags and do-not-disturb settings changed (PUT /contacts/{contactId}, POST /contacts/upsert)."},
	{Name: "ContactDelete", Scope: "contacts.readonly", Summary: "A contact was deleted, with its tasks and notes (DELETE /contacts/{contactId}): the contact as it was."},
	{Name: "ContactTagUpdate", Scope: "contacts.readonly", Summary: "A contact's tags changed (POST or DELETE /contacts/{contactId}/tags, an update or an upsert sending tags)."},
	{Name: "ContactDndUpdate", Scope: "contacts.readonly", Summary: "A contact's do-not-disturb settings changed (dnd, dndSettings or inboundDndSettings, by an update or an upsert)."},
	{Name: "CouponDelete", Scope: "payments/coupons.write", Summary: "A coupon was deleted (DELETE /payments/coupon): the coupon as it was."},
	{Name: "WhitelabelProviderCreate", Scope: "payments/integration.write", Summary: "A white-label payment provider was created (POST /payments/integrations/provider/whitelabel)."},
	{Name: "InventoryUpdate", Scope: "products/prices.write", Summary: "The inventory of one or more prices was updated (POST /products/inventory), in one change."},
	{Name: "ShippingZoneUpdate", Scope: "products.readonly", Summary: "A shipping zone was updated (PUT /store/shipping-zone/{shippingZoneId})."},
	{Name: "ShippingRateUpdate", Scope: "products.readonly", Summary: "A shipping rate was updated (PUT /store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId})."},
	{Name: "CustomFieldUpdate", Scope: "locations/customFields.write", Summary: "A custom field was updated (PUT /custom-fields/{id})."},
	{Name: "AssociationCreate", Scope: "associations.write", Summary: "An association was created (POST /associations/)."},
	{Name: "RelationCreate", Scope: "associations/relation.write", Summary: "Two records were related under an association (POST /associations/relations)."},
	{Name: "BrandBoardCreate", Scope: "brand-boards/design-kit.write", Summary: "A brand board was created (POST /brand-boards/)."},
	{Name: "EmailTemplateCreate", Scope: "emails/builder.write", Summary: "An e-mail template or folder was created (POST /emails/builder)."},
	{Name: "VoiceAiActionUpdate", Scope: "voice-ai-agent-goals.readonly", Summary: "A voice-AI agent's action was updated (PUT /voice-ai/actions/{actionId}); a credential appears only masked."},
	{Name: "MediaFileUpdate", Scope: "medias.readonly", Summary: "A media file was renamed (POST /medias/{id})."},
	{Name: "MediaFolderUpdate", Scope: "medias.readonly", Summary: "A media folder was renamed (POST /medias/{id})."},
	{Name: "UserCreate", Scope: "users.readonly", Summary: "A user was created in a company (platformctl users create). A company's event: it carries companyId, not locationId.", OfCompany: true},
	{Name: "SocialAdsIntegrationDelete", Scope: "adPublishing.readonly", Summary: "The account's social ads integration was removed (DELETE /ad-publishing/socialads/integration)."},
}
