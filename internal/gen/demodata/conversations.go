package main

import (
	"cmp"
	"slices"
	"time"

	"github.com/bizplatform/api/internal/gen"
)

// The demo messages: demoMsg<Account><n> in conversations
// demoCnv<Account><n>, with the demo contacts demoCtc<Account><n>.
//
// The numeric type: the contract fixes 1 (TYPE_CALL), 3 (TYPE_EMAIL) and 10
// (TYPE_CAMPAIGN_VOICEMAIL); the others follow the public API's messageType
// list in order, without TYPE_RCS (a later addition whose number the contract
// does not give), which is what puts those three at 1, 3 and 10. Brand-named
// types are not used in the demo data.
var messageTypes = []string{"TYPE_CALL", "TYPE_SMS", "TYPE_EMAIL", "TYPE_SMS_REVIEW_REQUEST", "TYPE_WEBCHAT",
	"TYPE_SMS_NO_SHOW_REQUEST", "TYPE_CAMPAIGN_SMS", "TYPE_CAMPAIGN_CALL", "TYPE_CAMPAIGN_EMAIL",
	"TYPE_CAMPAIGN_VOICEMAIL", "TYPE_FACEBOOK", "TYPE_CAMPAIGN_FACEBOOK", "TYPE_CAMPAIGN_MANUAL_CALL",
	"TYPE_CAMPAIGN_MANUAL_SMS", "TYPE_GMB", "TYPE_CAMPAIGN_GMB", "TYPE_REVIEW", "TYPE_INSTAGRAM",
	"TYPE_WHATSAPP", "TYPE_CUSTOM_SMS", "TYPE_CUSTOM_EMAIL", "TYPE_CUSTOM_PROVIDER_SMS",
	"TYPE_CUSTOM_PROVIDER_EMAIL", "TYPE_IVR_CALL", "TYPE_ACTIVITY_CONTACT", "TYPE_ACTIVITY_INVOICE",
	"TYPE_ACTIVITY_PAYMENT", "TYPE_ACTIVITY_OPPORTUNITY", "TYPE_LIVE_CHAT",
	"TYPE_LIVE_CHAT_INFO_MESSAGE", "TYPE_ACTIVITY_APPOINTMENT", "TYPE_FACEBOOK_COMMENT",
	"TYPE_INSTAGRAM_COMMENT", "TYPE_CUSTOM_CALL", "TYPE_INTERNAL_COMMENT",
	"TYPE_ACTIVITY_EMPLOYEE_ACTION_LOG", "TYPE_TIKTOK", "TYPE_TIKTOK_COMMENT", "TYPE_ACTIVITY_WHATSAPP",
	"TYPE_FORM_SUBMISSION", "TYPE_SMS_REACTION"}

// messageTypeNumber is a messageType's numeric type.
func messageTypeNumber(name string) int {
	i := slices.Index(messageTypes, name)
	if i < 0 {
		panic("unknown message type " + name)
	}
	return i + 1
}

const mediaURL = "https://media.example.com/accounts"

type message struct {
	ID             string   `json:"id"`
	Type           int      `json:"type"`
	MessageType    string   `json:"messageType"`
	LocationID     string   `json:"locationId"`
	ContactID      string   `json:"contactId"`
	ConversationID string   `json:"conversationId"`
	DateAdded      string   `json:"dateAdded"`
	Body           string   `json:"body,omitempty"`
	Direction      string   `json:"direction"`
	Status         string   `json:"status,omitempty"`
	ContentType    string   `json:"contentType"`
	Attachments    []string `json:"attachments"`
	Meta           *meta    `json:"meta,omitempty"`
	Source         string   `json:"source,omitempty"`
	UserID         string   `json:"userId,omitempty"`
	ProviderID     string   `json:"conversationProviderId,omitempty"`
	ChatWidgetID   string   `json:"chatWidgetId,omitempty"`
}

type meta struct {
	Email        *emailMeta `json:"email,omitempty"`
	CallDuration string     `json:"callDuration,omitempty"`
	CallStatus   string     `json:"callStatus,omitempty"`
}

type emailMeta struct {
	MessageIDs []string `json:"messageIds"`
}

// sent is where a message sits and what it is: its account, number,
// conversation, contact, minutes after the first message, type and direction.
type sent struct {
	acct                   demoAccount
	n, conversation, ctc   int
	minutes                int
	messageType, direction string
	contentType            string
}

func (s sent) message(m message) message {
	m.ID = s.acct.recordID("Msg", s.n)
	m.Type = messageTypeNumber(s.messageType)
	m.MessageType = s.messageType
	m.LocationID = s.acct.id
	m.ContactID = s.acct.recordID("Ctc", s.ctc)
	m.ConversationID = s.acct.recordID("Cnv", s.conversation)
	m.DateAdded = timestamp(utc(2025, time.March, 3, 8, 0).Add(time.Duration(s.minutes) * time.Minute))
	m.Direction = s.direction
	m.ContentType = s.contentType
	if m.Attachments == nil {
		m.Attachments = []string{}
	}
	return m
}

func calls(duration, status string) *meta { return &meta{CallDuration: duration, CallStatus: status} }

func emailThread(ids ...string) *meta { return &meta{Email: &emailMeta{MessageIDs: ids}} }

func conversations() (string, error) {
	const (
		user   = "demoUsrNorth00000007"
		widget = "demoWgtAlpha00000001"
		text   = "text/plain"
		html   = "text/html"
	)
	attachment := func(n int, name string) []string {
		return []string{mediaURL + "/" + alpha.id + "/attachments/" + alpha.recordID("Msg", n) + "/" + name}
	}
	thread := []string{alpha.recordID("Msg", 4), alpha.recordID("Msg", 5), alpha.recordID("Msg", 6)}
	messages := []message{
		// Conversation 1, contact 1: an SMS thread (in, out, in with a photo, out failed then resent).
		sent{alpha, 1, 1, 1, 0, "TYPE_SMS", "inbound", text}.message(message{Body: "Hi, could I move my cleaning to Friday morning?", Status: "delivered"}),
		sent{alpha, 2, 1, 1, 12, "TYPE_SMS", "outbound", text}.message(message{Body: "Of course! Friday 9:30 is free. Shall I book it?", Status: "delivered", Source: "app", UserID: user}),
		sent{alpha, 3, 1, 1, 20, "TYPE_SMS", "inbound", text}.message(message{Body: "Yes please. Here is the photo of my insurance card.", Status: "delivered",
			Attachments: attachment(3, "insurance-card.jpg")}),
		sent{alpha, 17, 1, 1, 25, "TYPE_SMS", "outbound", text}.message(message{Body: "Booked: Friday 9:30. See you then!", Status: "failed", Source: "app", UserID: user}),
		sent{alpha, 18, 1, 1, 27, "TYPE_SMS", "outbound", text}.message(message{Body: "Booked: Friday 9:30. See you then!", Status: "read", Source: "app", UserID: user}),

		// Conversation 2, contact 2: an e-mail thread of three messages.
		sent{alpha, 4, 2, 2, 60, "TYPE_EMAIL", "outbound", html}.message(message{
			Body: "<p>Dear " + demoContacts()[1].FirstName + ",</p><p>Please find your treatment plan attached.</p>", Status: "opened", Source: "workflow",
			Attachments: attachment(4, "treatment-plan.pdf"), Meta: emailThread(thread...), UserID: user}),
		sent{alpha, 5, 2, 2, 180, "TYPE_EMAIL", "inbound", html}.message(message{
			Body: "<p>Thanks! Does the plan include the follow-up X-ray?</p>", Status: "delivered", Meta: emailThread(thread...)}),
		sent{alpha, 6, 2, 2, 200, "TYPE_EMAIL", "outbound", html}.message(message{
			Body: "<p>Yes, the follow-up X-ray is included.</p>", Status: "sent", Source: "app", Meta: emailThread(thread...), UserID: user}),

		// Conversation 3, contact 3: calls (type 1) and a campaign voicemail (type 10); never attachments.
		sent{alpha, 7, 3, 3, 300, "TYPE_CALL", "inbound", text}.message(message{Status: "connected", Meta: calls("184", "completed"), UserID: user}),
		sent{alpha, 8, 3, 3, 330, "TYPE_CALL", "outbound", text}.message(message{Status: "undelivered", Meta: calls("0", "no-answer"), Source: "app", UserID: user}),
		sent{alpha, 9, 3, 3, 340, "TYPE_CAMPAIGN_VOICEMAIL", "outbound", text}.message(message{Status: "delivered", Meta: calls("32", "voicemail"), Source: "campaign"}),

		// Conversation 4, contact 4: website chat.
		sent{alpha, 10, 4, 4, 400, "TYPE_WEBCHAT", "inbound", text}.message(message{Body: "Do you offer clear aligner consultations?", Status: "delivered", ChatWidgetID: widget}),
		sent{alpha, 11, 4, 4, 402, "TYPE_WEBCHAT", "outbound", text}.message(message{Body: "We do, and the first consultation is free.", Status: "read", Source: "app", UserID: user, ChatWidgetID: widget}),

		// Conversation 5, contact 5: live chat with an info message.
		sent{alpha, 12, 5, 5, 500, "TYPE_LIVE_CHAT", "inbound", text}.message(message{Body: "Is there parking near the clinic?", Status: "read"}),
		sent{alpha, 13, 5, 5, 501, "TYPE_LIVE_CHAT_INFO_MESSAGE", "outbound", text}.message(message{Body: "Chat transferred to reception", Source: "app"}),

		// Conversation 6, contact 6: campaign messages.
		sent{alpha, 14, 6, 6, 600, "TYPE_CAMPAIGN_SMS", "outbound", text}.message(message{Body: "Spring offer: 20% off whitening until April 30.", Status: "delivered", Source: "campaign"}),
		sent{alpha, 15, 6, 6, 610, "TYPE_CAMPAIGN_EMAIL", "outbound", html}.message(message{Body: "<h1>Spring offer</h1><p>20% off whitening.</p>", Status: "clicked", Source: "bulk_actions",
			Attachments: attachment(15, "spring-offer.png"), Meta: emailThread(alpha.recordID("Msg", 15))}),

		// Conversation 7, contact 7: an SMS through a custom provider, queued, sent by the API.
		sent{alpha, 16, 7, 7, 700, "TYPE_CUSTOM_PROVIDER_SMS", "outbound", text}.message(message{Body: "Reminder: appointment tomorrow at 14:00.", Status: "queued", Source: "api",
			ProviderID: "demoPrvAlpha00000001"}),

		// Conversation 8, contact 8: a review request and an internal note.
		sent{alpha, 19, 8, 8, 800, "TYPE_SMS_REVIEW_REQUEST", "outbound", text}.message(message{Body: "How was your visit? Leave us a review: https://reviews.example.com/alpha", Status: "sent", Source: "workflow"}),
		sent{alpha, 20, 8, 8, 805, "TYPE_INTERNAL_COMMENT", "outbound", text}.message(message{Body: "Patient prefers morning appointments.", UserID: user}),

		sent{bravo, 1, 1, 1, 30, "TYPE_SMS", "inbound", text}.message(message{Body: "Is my physio session still on for Monday?", Status: "delivered"}),
		sent{bravo, 2, 1, 1, 45, "TYPE_CALL", "outbound", text}.message(message{Status: "connected", Meta: calls("95", "completed"), Source: "app"}),

		sent{charlie, 1, 1, 1, 90, "TYPE_SMS", "inbound", text}.message(message{Body: "Can you quote a roof repair next week?", Status: "delivered"}),
	}
	slices.SortFunc(messages, func(a, b message) int {
		return cmp.Or(cmp.Compare(a.LocationID, b.LocationID), cmp.Compare(a.ID, b.ID))
	})
	return gen.JSONFile(map[string]any{"messages": messages})
}
