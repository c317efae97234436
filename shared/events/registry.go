// Code generated from the event registry (catalog.EventTypes) by go generate ./...; DO NOT EDIT.

package events

// Registry is every event type, in the catalog's order (Fields: nil).
var Registry = []Type{
	{Name: "TaskDelete", Scope: "contacts.readonly", Version: 1, Summary: "A contact's task was deleted (DELETE /contacts/{contactId}/tasks/{taskId})."},
	{Name: "ContactCreate", Scope: "contacts.readonly", Version: 1, Summary: "A contact was created (POST /contacts/, or POST /contacts/upsert finding none)."},
	{Name: "ContactUpdate", Scope: "contacts.readonly", Version: 1, Summary: "A contact's fields other than its tags and do-not-disturb settings changed (PUT /contacts/{contactId}, POST /contacts/upsert)."},
	{Name: "ContactDelete", Scope: "contacts.readonly", Version: 1, Summary: "A contact was deleted, with its tasks and notes (DELETE /contacts/{contactId}): the contact as it was."},
	{Name: "ContactTagUpdate", Scope: "contacts.readonly", Version: 1, Summary: "A contact's tags changed (POST or DELETE /contacts/{contactId}/tags, an update or an upsert sending tags)."},
	{Name: "ContactDndUpdate", Scope: "contacts.readonly", Version: 1, Summary: "A contact's do-not-disturb settings changed (dnd, dndSettings or inboundDndSettings, by an update or an upsert)."},
	{Name: "TaskCreate", Scope: "contacts.readonly", Version: 1, Summary: "A task was added to a contact (POST /contacts/{contactId}/tasks)."},
	{Name: "TaskComplete", Scope: "contacts.readonly", Version: 1, Summary: "A contact's task was completed (PUT /contacts/{contactId}/tasks/{taskId}/completed, or an update setting completed)."},
	{Name: "TaskUpdate", Scope: "contacts.readonly", Version: 1, Summary: "A contact's task was changed other than by completing it, or reopened (PUT /contacts/{contactId}/tasks/{taskId}, or .../completed with completed false). This platform's own: the public platform has no such event."},
	{Name: "NoteCreate", Scope: "contacts.readonly", Version: 1, Summary: "A note was added to a contact (POST /contacts/{contactId}/notes)."},
	{Name: "NoteUpdate", Scope: "contacts.readonly", Version: 1, Summary: "A contact's note was changed (PUT /contacts/{contactId}/notes/{id})."},
	{Name: "NoteDelete", Scope: "contacts.readonly", Version: 1, Summary: "A contact's note was deleted (DELETE /contacts/{contactId}/notes/{id}): the note as it was."},
	{Name: "CouponDelete", Scope: "payments/coupons.write", Version: 1, Summary: "A coupon was deleted (DELETE /payments/coupon): the coupon as it was."},
	{Name: "WhitelabelProviderCreate", Scope: "payments/integration.write", Version: 1, Summary: "A white-label payment provider was created (POST /payments/integrations/provider/whitelabel)."},
	{Name: "InventoryUpdate", Scope: "products/prices.write", Version: 1, Summary: "The inventory of one or more prices was updated (POST /products/inventory), in one change."},
	{Name: "ShippingZoneUpdate", Scope: "products.readonly", Version: 1, Summary: "A shipping zone was updated (PUT /store/shipping-zone/{shippingZoneId})."},
	{Name: "ShippingRateUpdate", Scope: "products.readonly", Version: 1, Summary: "A shipping rate was updated (PUT /store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId})."},
	{Name: "CustomFieldUpdate", Scope: "locations/customFields.write", Version: 1, Summary: "A custom field was updated (PUT /custom-fields/{id})."},
	{Name: "AssociationCreate", Scope: "associations.write", Version: 1, Summary: "An association was created (POST /associations/)."},
	{Name: "RelationCreate", Scope: "associations/relation.write", Version: 1, Summary: "Two records were related under an association (POST /associations/relations)."},
	{Name: "BrandBoardCreate", Scope: "brand-boards/design-kit.write", Version: 1, Summary: "A brand board was created (POST /brand-boards/)."},
	{Name: "EmailTemplateCreate", Scope: "emails/builder.write", Version: 1, Summary: "An e-mail template or folder was created (POST /emails/builder)."},
	{Name: "VoiceAiActionUpdate", Scope: "voice-ai-agent-goals.readonly", Version: 1, Summary: "A voice-AI agent's action was updated (PUT /voice-ai/actions/{actionId}); a credential appears only masked."},
	{Name: "MediaFileUpdate", Scope: "medias.readonly", Version: 1, Summary: "A media file was renamed (POST /medias/{id})."},
	{Name: "MediaFolderUpdate", Scope: "medias.readonly", Version: 1, Summary: "A media folder was renamed (POST /medias/{id})."},
	{Name: "UserCreate", Scope: "users.readonly", Version: 1, Summary: "A user was created in a company (platformctl users create). A company's event: it carries companyId, not locationId.", OfCompany: true},
	{Name: "SocialAdsIntegrationDelete", Scope: "adPublishing.readonly", Version: 1, Summary: "The account's social ads integration was removed (DELETE /ad-publishing/socialads/integration)."},
	{Name: "INSTALL", Scope: "oauth.readonly", Version: 1, Summary: "A marketplace app was installed in the account (its consent's code exchanged, or a company install approved for it); sent to that app alone.", Routed: true},
	{Name: "UNINSTALL", Scope: "oauth.readonly", Version: 1, Summary: "A marketplace app was uninstalled from the account (in the portal, or its deletion); sent to that app alone.", Routed: true},
}
