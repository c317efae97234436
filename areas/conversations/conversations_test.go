package conversations_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/conversations"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
)

func newEnv(t *testing.T) (*testenv.Env, string) {
	env := testenv.New(t, []app.Area{conversations.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	token, _ := env.Token(t, acctA)
	return env, token
}

func seedMessages(t *testing.T, env *testenv.Env, msgs ...conversations.Message) {
	t.Helper()
	raw, err := json.Marshal(conversations.SeedData{Messages: msgs})
	require.NoError(t, err)
	env.Seed(t, conversations.Area, string(raw))
}

// message returns a valid inbound SMS of account with the given id.
func message(account, id string) conversations.Message {
	return conversations.Message{
		ID: id, Type: 2, MessageType: "TYPE_SMS", LocationID: account, ContactID: "contact1",
		ConversationID: "conv1", DateAdded: "2025-03-03T08:00:00.000Z", Body: "Hello from " + account,
		Direction: "inbound", Status: "delivered", ContentType: "text/plain",
		Attachments: []string{"https://media.example.com/a/photo.jpg"},
	}
}

func getMessage(t *testing.T, env *testenv.Env, token, id string) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "GET", Path: "/conversations/messages/" + id, Token: token})
}

func TestGetMessageAnswersEveryStoredField(t *testing.T) {
	env, token := newEnv(t)
	seedMessages(t, env, conversations.Message{
		ID: "email1", Type: 3, MessageType: "TYPE_EMAIL", LocationID: acctA, ContactID: "contact7",
		ConversationID: "conv7", DateAdded: "2025-03-03T09:15:00Z", Body: "<p>Your plan</p>",
		Direction: "outbound", Status: "opened", ContentType: "text/html",
		Attachments: []string{"https://media.example.com/a/plan.pdf"},
		Meta:        &conversations.MessageMeta{Email: &conversations.EmailMeta{MessageIDs: []string{"email0", "email1"}}},
		Source:      "workflow", UserID: "user1", ConversationProviderID: "provider1", ChatWidgetID: "widget1",
	})

	resp := getMessage(t, env, token, "email1")
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	assert.JSONEq(t, `{
		"id": "email1", "type": 3, "messageType": "TYPE_EMAIL", "locationId": "acctAlpha",
		"contactId": "contact7", "conversationId": "conv7", "dateAdded": "2025-03-03T09:15:00.000Z",
		"body": "<p>Your plan</p>", "direction": "outbound", "status": "opened", "contentType": "text/html",
		"attachments": ["https://media.example.com/a/plan.pdf"],
		"meta": {"email": {"messageIds": ["email0", "email1"]}},
		"source": "workflow", "userId": "user1", "conversationProviderId": "provider1", "chatWidgetId": "widget1"
	}`, string(resp.Body))
}

func TestGetMessageServesCallMetaAndHidesCallAttachments(t *testing.T) {
	env, token := newEnv(t)
	sms := message(acctA, "sms1")
	bare := message(acctA, "bare1")
	bare.Attachments = nil
	call := message(acctA, "call1")
	call.Type, call.MessageType, call.Body = 1, "TYPE_CALL", ""
	call.Meta = &conversations.MessageMeta{CallDuration: "184", CallStatus: "completed"}
	voicemail := message(acctA, "voicemail1")
	voicemail.Type, voicemail.MessageType, voicemail.Body = 10, "TYPE_CAMPAIGN_VOICEMAIL", ""
	voicemail.Meta = &conversations.MessageMeta{CallDuration: "32", CallStatus: "voicemail"}
	// The call and the voicemail are stored with an attachment, to prove the
	// answer leaves it out whatever is stored.
	seedMessages(t, env, sms, bare, call, voicemail)

	cases := []struct {
		name string
		id   string
		want []any
		meta map[string]any
	}{
		{"an SMS shows its attachments", "sms1", []any{"https://media.example.com/a/photo.jpg"}, nil},
		{"a message stored without attachments shows an empty list", "bare1", []any{}, nil},
		{"a call (type 1) shows no attachments though one is stored", "call1", []any{}, map[string]any{"callDuration": "184", "callStatus": "completed"}},
		{"a voicemail (type 10) shows no attachments though one is stored", "voicemail1", []any{}, map[string]any{"callDuration": "32", "callStatus": "voicemail"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := getMessage(t, env, token, tc.id)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			body := resp.Map(t)
			require.Contains(t, body, "attachments", "attachments is always present")
			assert.Equal(t, tc.want, body["attachments"])
			if tc.meta != nil {
				assert.Equal(t, tc.meta, body["meta"])
			} else {
				assert.NotContains(t, body, "meta")
			}
		})
	}
	t.Run("the stored call keeps its attachment: only the answer hides it", func(t *testing.T) {
		stored, err := conversations.NewMessages(env.Table).Get(context.Background(), acctA, "call1")
		require.NoError(t, err)
		require.NotNil(t, stored)
		assert.Len(t, stored.Attachments, 1)
	})
}

func TestGetMessageRefusesBadAndForeignIDs(t *testing.T) {
	env, token := newEnv(t)
	seedMessages(t, env, message(acctA, "mine1"), message(acctA, "shared1"), message(acctB, "theirs1"), message(acctB, "shared1"))
	store := conversations.NewMessages(env.Table)

	cases := []struct {
		name   string
		id     string
		status int
		msg    string
	}{
		{"a malformed id is a 400 naming id", "a%23b", http.StatusBadRequest, "id must be an id"},
		{"an id with a dot is a 400 naming id", "a.b", http.StatusBadRequest, "id must be an id"},
		{"an id longer than 64 characters is a 400 naming id", strings.Repeat("x", 65), http.StatusBadRequest, "id must be an id"},
		{"an unknown id is a 404", "nosuchmessage", http.StatusNotFound, "nosuchmessage was not found"},
		{"another account's message is a 404", "theirs1", http.StatusNotFound, "theirs1 was not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := getMessage(t, env, token, tc.id).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.msg)
		})
	}
	t.Run("another account's message stays as it was", func(t *testing.T) {
		m, err := store.Get(context.Background(), acctB, "theirs1")
		require.NoError(t, err)
		require.NotNil(t, m)
		assert.Equal(t, "Hello from "+acctB, m.Body)
	})
	t.Run("an id both accounts use answers the caller's own message", func(t *testing.T) {
		resp := getMessage(t, env, token, "shared1")
		require.Equal(t, http.StatusOK, resp.Status)
		body := resp.Map(t)
		assert.Equal(t, acctA, body["locationId"])
		assert.Equal(t, "Hello from "+acctA, body["body"])
	})
}

func TestGetMessageAuth(t *testing.T) {
	env, _ := newEnv(t)
	seedMessages(t, env, message(acctA, "auth1"))
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.GetMessage, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusNotFound,
		Call: func(t *testing.T, token string) *testenv.Response { return getMessage(t, env, token, "auth1") },
	})
}

func TestSeedRefusesMessagesTheAPICouldNotServe(t *testing.T) {
	env, _ := newEnv(t)
	cases := []struct {
		name   string
		change func(m *conversations.Message)
		want   string
	}{
		{"a malformed id", func(m *conversations.Message) { m.ID = "a#b" }, "id must be an id"},
		{"a missing conversationId", func(m *conversations.Message) { m.ConversationID = "" }, "conversationId is required"},
		{"an unknown messageType", func(m *conversations.Message) { m.MessageType = "TYPE_PIGEON" }, "messageType must be one of"},
		{"an e-mail type on an SMS", func(m *conversations.Message) { m.Type = 3 }, "type 3 does not go with messageType TYPE_SMS"},
		{"a call that is not type 1", func(m *conversations.Message) { m.MessageType = "TYPE_CALL" }, "type 2 does not go with messageType TYPE_CALL"},
		{"a voicemail that is not type 10", func(m *conversations.Message) { m.MessageType = "TYPE_CAMPAIGN_VOICEMAIL" }, "type 2 does not go with messageType TYPE_CAMPAIGN_VOICEMAIL"},
		{"a zero type", func(m *conversations.Message) { m.Type = 0 }, "type must be a positive number"},
		{"an unknown direction", func(m *conversations.Message) { m.Direction = "sideways" }, "direction must be one of"},
		{"an unknown status", func(m *conversations.Message) { m.Status = "lost" }, "status must be one of"},
		{"an unknown source", func(m *conversations.Message) { m.Source = "fax" }, "source must be one of"},
		{"a missing contentType", func(m *conversations.Message) { m.ContentType = " " }, "contentType is required"},
		{"a dateAdded that is not a timestamp", func(m *conversations.Message) { m.DateAdded = "yesterday" }, "dateAdded must be an RFC 3339 time"},
		{"an attachment that is not an https URL", func(m *conversations.Message) { m.Attachments = []string{"ftp://x/y"} }, "attachments[0] must be an https URL with a public host: it uses ftp, not https"},
		{"an unknown callStatus", func(m *conversations.Message) {
			m.Meta = &conversations.MessageMeta{CallStatus: "ringing"}
		}, "meta.callStatus must be one of"},
		{"a callDuration that is not seconds", func(m *conversations.Message) {
			m.Meta = &conversations.MessageMeta{CallDuration: "2 minutes"}
		}, "meta.callDuration must be a whole number of seconds"},
		{"a malformed thread message id", func(m *conversations.Message) {
			m.Meta = &conversations.MessageMeta{Email: &conversations.EmailMeta{MessageIDs: []string{"ok", "not ok"}}}
		}, "meta.email.messageIds[1] must be an id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := message(acctA, "bad1")
			tc.change(&m)
			raw, err := json.Marshal(conversations.SeedData{Messages: []conversations.Message{m}})
			require.NoError(t, err)
			err = conversations.Area.Seed(context.Background(), env.Deps, raw)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	t.Run("an id given twice in one account", func(t *testing.T) {
		raw, _ := json.Marshal(conversations.SeedData{Messages: []conversations.Message{message(acctA, "dup"), message(acctA, "dup")}})
		err := conversations.Area.Seed(context.Background(), env.Deps, raw)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "messages[1] (id dup): id is taken by messages[0] in account")
	})
	t.Run("an unknown property", func(t *testing.T) {
		err := conversations.Area.Seed(context.Background(), env.Deps, []byte(`{"messages":[{"id":"x","colour":"red"}]}`))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "colour")
	})
	t.Run("nothing was written by the refused loads", func(t *testing.T) {
		m, err := conversations.NewMessages(env.Table).Get(context.Background(), acctA, "bad1")
		require.NoError(t, err)
		assert.Nil(t, m)
	})
}

func TestSeedNormalizesTimestampsAndAttachments(t *testing.T) {
	env, token := newEnv(t)
	m := message(acctA, "plain1")
	m.DateAdded, m.Attachments = "2025-03-03T08:00:00+02:00", nil
	seedMessages(t, env, m)
	stored, err := conversations.NewMessages(env.Table).Get(context.Background(), acctA, "plain1")
	require.NoError(t, err)
	require.NotNil(t, stored)
	assert.Equal(t, "2025-03-03T06:00:00.000Z", stored.DateAdded, "UTC with milliseconds, as the API writes timestamps")
	assert.Equal(t, []string{}, stored.Attachments)
	assert.Equal(t, http.StatusOK, getMessage(t, env, token, "plain1").Status)
}
