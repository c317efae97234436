package conversations

// The value sets of the message resource, as the public API defines them.
// The handler serves stored messages as they are; the seed checks demo data
// against these sets so that the dataset only holds values a client can meet.

// messageTypes lists every messageType value, in the public API's order.
var messageTypes = []string{
	"TYPE_CALL",
	"TYPE_SMS",
	"TYPE_RCS",
	"TYPE_EMAIL",
	"TYPE_SMS_REVIEW_REQUEST",
	"TYPE_WEBCHAT",
	"TYPE_SMS_NO_SHOW_REQUEST",
	"TYPE_CAMPAIGN_SMS",
	"TYPE_CAMPAIGN_CALL",
	"TYPE_CAMPAIGN_EMAIL",
	"TYPE_CAMPAIGN_VOICEMAIL",
	"TYPE_FACEBOOK",
	"TYPE_CAMPAIGN_FACEBOOK",
	"TYPE_CAMPAIGN_MANUAL_CALL",
	"TYPE_CAMPAIGN_MANUAL_SMS",
	"TYPE_GMB",
	"TYPE_CAMPAIGN_GMB",
	"TYPE_REVIEW",
	"TYPE_INSTAGRAM",
	"TYPE_WHATSAPP",
	"TYPE_CUSTOM_SMS",
	"TYPE_CUSTOM_EMAIL",
	"TYPE_CUSTOM_PROVIDER_SMS",
	"TYPE_CUSTOM_PROVIDER_EMAIL",
	"TYPE_IVR_CALL",
	"TYPE_ACTIVITY_CONTACT",
	"TYPE_ACTIVITY_INVOICE",
	"TYPE_ACTIVITY_PAYMENT",
	"TYPE_ACTIVITY_OPPORTUNITY",
	"TYPE_LIVE_CHAT",
	"TYPE_LIVE_CHAT_INFO_MESSAGE",
	"TYPE_ACTIVITY_APPOINTMENT",
	"TYPE_FACEBOOK_COMMENT",
	"TYPE_INSTAGRAM_COMMENT",
	"TYPE_CUSTOM_CALL",
	"TYPE_INTERNAL_COMMENT",
	"TYPE_ACTIVITY_EMPLOYEE_ACTION_LOG",
	"TYPE_TIKTOK",
	"TYPE_TIKTOK_COMMENT",
	"TYPE_ACTIVITY_WHATSAPP",
	"TYPE_FORM_SUBMISSION",
	"TYPE_SMS_REACTION",
}

// The numeric types the contract names. Calls and voicemails carry no
// attachments: their recordings are served by a call-recording operation.
const (
	typeCall      = 1
	typeEmail     = 3
	typeVoicemail = 10
)

// numericTypeOf pins the messageType of the numeric types the contract
// names, both ways: a TYPE_EMAIL message is type 3 and a type 3 message is
// TYPE_EMAIL. The numbering of the other types is not part of the contract.
var numericTypeOf = map[string]int{
	"TYPE_CALL":               typeCall,
	"TYPE_EMAIL":              typeEmail,
	"TYPE_CAMPAIGN_VOICEMAIL": typeVoicemail,
}

var (
	directions   = []string{"inbound", "outbound"}
	statuses     = []string{"connected", "delivered", "failed", "opened", "pending", "read", "scheduled", "sent", "undelivered", "clicked", "opt_out", "queued"}
	sources      = []string{"workflow", "bulk_actions", "campaign", "api", "app"}
	callStatuses = []string{"pending", "completed", "answered", "busy", "no-answer", "failed", "canceled", "voicemail"}
)
