package conversations

import "github.com/bizplatform/api/shared/storage"

// Message is a message record, with the public API's field names.
type Message struct {
	ID string `dynamodbav:"id" json:"id"`
	// Type is the numeric message type (1 call, 3 e-mail, 10 voicemail).
	Type           int    `dynamodbav:"type" json:"type"`
	MessageType    string `dynamodbav:"messageType" json:"messageType"`
	LocationID     string `dynamodbav:"locationId" json:"locationId"`
	ContactID      string `dynamodbav:"contactId" json:"contactId"`
	ConversationID string `dynamodbav:"conversationId" json:"conversationId"`
	DateAdded      string `dynamodbav:"dateAdded" json:"dateAdded"`
	Body           string `dynamodbav:"body,omitempty" json:"body,omitempty"`
	Direction      string `dynamodbav:"direction" json:"direction"`
	Status         string `dynamodbav:"status,omitempty" json:"status,omitempty"`
	ContentType    string `dynamodbav:"contentType" json:"contentType"`
	// Attachments are attachment URLs.
	Attachments            []string     `dynamodbav:"attachments" json:"attachments"`
	Meta                   *MessageMeta `dynamodbav:"meta,omitempty" json:"meta,omitempty"`
	Source                 string       `dynamodbav:"source,omitempty" json:"source,omitempty"`
	UserID                 string       `dynamodbav:"userId,omitempty" json:"userId,omitempty"`
	ConversationProviderID string       `dynamodbav:"conversationProviderId,omitempty" json:"conversationProviderId,omitempty"`
	ChatWidgetID           string       `dynamodbav:"chatWidgetId,omitempty" json:"chatWidgetId,omitempty"`
}

// MessageMeta holds the facts of calls (duration, outcome) and e-mails
// (the thread's message ids).
type MessageMeta struct {
	// CallDuration is the call's length in seconds, as a string.
	CallDuration string     `dynamodbav:"callDuration,omitempty" json:"callDuration,omitempty"`
	CallStatus   string     `dynamodbav:"callStatus,omitempty" json:"callStatus,omitempty"`
	Email        *EmailMeta `dynamodbav:"email,omitempty" json:"email,omitempty"`
}

// EmailMeta lists the ids of every e-mail message of the thread.
type EmailMeta struct {
	MessageIDs []string `dynamodbav:"messageIds" json:"messageIds"`
}

// Messages is the accounts' messages. They are stored by id in their
// account's partition: the only access is a lookup by id, always in the
// caller's own partition.
type Messages = storage.AccountItems[Message]

// NewMessages returns the messages on table.
func NewMessages(table *storage.Table) *Messages {
	// Read eventually: no operation writes messages (a seed loads them).
	return storage.NewAccountItems(table, "MESSAGE#", func(m Message) (string, string) { return m.LocationID, m.ID }).ReadEventually()
}
