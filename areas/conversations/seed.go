package conversations

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the conversations part of a demo dataset.
type SeedData struct {
	Messages []Message `json:"messages"`
}

// seed checks every message (so the dataset only holds what the API could
// serve), fills in what the file leaves out, and writes them. Loading twice
// writes the same items.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	now := d.Clock.Now()
	err := app.CheckRecords("messages", data.Messages, func(m *Message) (string, string) { return m.LocationID, m.ID }, func(m *Message) error {
		return checkSeedMessage(m, now)
	})
	if err != nil {
		return err
	}
	return NewMessages(d.Table).Seed(ctx, data.Messages, nil)
}

// checkSeedMessage validates a demo message and normalizes it: dateAdded
// left out is now, times are in the API's format, attachments never null.
func checkSeedMessage(m *Message, now time.Time) error {
	var problems []string
	add := func(msg string) {
		if msg != "" {
			problems = append(problems, msg)
		}
	}
	add(validate.IDProblem("id", m.ID))
	add(validate.IDProblem("locationId", m.LocationID))
	add(validate.IDProblem("contactId", m.ContactID))
	add(validate.IDProblem("conversationId", m.ConversationID))
	for field, v := range map[string]string{"userId": m.UserID, "conversationProviderId": m.ConversationProviderID, "chatWidgetId": m.ChatWidgetID} {
		if v != "" {
			add(validate.IDProblem(field, v))
		}
	}
	if !slices.Contains(messageTypes, m.MessageType) {
		add("messageType must be one of the public API's message types")
	}
	if m.Type < 1 {
		add("type must be a positive number")
	}
	for name, n := range numericTypeOf {
		if (m.MessageType == name) != (m.Type == n) {
			add(fmt.Sprintf("type %d does not go with messageType %s (type %d is %s)", m.Type, m.MessageType, n, name))
		}
	}
	add(oneOf("direction", m.Direction, directions, true))
	add(oneOf("status", m.Status, statuses, false))
	add(oneOf("source", m.Source, sources, false))
	if strings.TrimSpace(m.ContentType) == "" {
		add("contentType is required")
	}
	added, err := time.Parse(time.RFC3339, m.DateAdded)
	switch {
	case m.DateAdded == "":
		m.DateAdded = clock.Timestamp(now)
	case err != nil:
		add("dateAdded must be an RFC 3339 time")
	default:
		m.DateAdded = clock.Timestamp(added)
	}
	for i, u := range m.Attachments {
		if why := validate.OutsideURLProblem(u); why != "" {
			add(fmt.Sprintf("attachments[%d] %s: %s", i, validate.OutsideURLRule, why))
		}
	}
	if m.Attachments == nil {
		m.Attachments = []string{}
	}
	if meta := m.Meta; meta != nil {
		add(oneOf("meta.callStatus", meta.CallStatus, callStatuses, false))
		if meta.CallDuration != "" && !isSeconds(meta.CallDuration) {
			add("meta.callDuration must be a whole number of seconds")
		}
		if meta.Email != nil {
			for i, id := range meta.Email.MessageIDs {
				add(validate.IDProblem(fmt.Sprintf("meta.email.messageIds[%d]", i), id))
			}
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

func oneOf(field, v string, allowed []string, required bool) string {
	switch {
	case v == "" && !required:
		return ""
	case slices.Contains(allowed, v):
		return ""
	default:
		return fmt.Sprintf("%s must be one of: %s", field, strings.Join(allowed, ", "))
	}
}

func isSeconds(s string) bool {
	if len(s) > 9 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
