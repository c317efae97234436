package voiceai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
	agentA  = "agentAlpha"
	// agentA2 is a second agent of Alpha, with an action of its own.
	agentA2    = "agentAlphaTwo"
	actionA2   = "actAlphaTwo"
	agentB     = "agentBravo"
	actionB    = "actBravo"
	seededDate = "2025-02-10T09:00:00.000Z"
)

// actionID is the id of Alpha's fixture action of actionType.
func actionID(actionType string) string { return "act_" + strings.ToLower(actionType) }

func actionPath(id string) string { return "/voice-ai/actions/" + id }

// seedParams are the parameters each fixture action starts with.
func seedParams(actionType string) map[string]any {
	switch actionType {
	case voiceai.TypeCallTransfer:
		return map[string]any{"triggerPrompt": "When the caller asks for a manager", "transferToType": "number", "transferToValue": "+12345678901", "triggerMessage": "Transferring you now"}
	case voiceai.TypeDataExtraction, voiceai.TypeInCallDataExtraction:
		return map[string]any{"contactFieldId": "cfPhone", "description": "Caller's phone number", "examples": []any{"+1234567890"}, "overwriteExistingValue": false}
	case voiceai.TypeWorkflowTrigger:
		return map[string]any{"triggerPrompt": "When caller requests a quote", "triggerMessage": "Let me start that", "workflowId": "wfQuote"}
	case voiceai.TypeSMS:
		return map[string]any{"triggerPrompt": "When caller asks for a confirmation", "triggerMessage": "Texting you", "messageBody": "Confirmed"}
	case voiceai.TypeAppointmentBooking:
		return map[string]any{"calendarId": "calMain", "daysOfOfferingDates": 3.0, "slotsPerDay": 3.0, "hoursBetweenSlots": 1.0}
	case voiceai.TypeCustomAction:
		return map[string]any{"triggerPrompt": "When caller gives an order number", "triggerMessage": "Checking", "apiDetails": map[string]any{"url": "https://api.example.com/orders", "method": "GET"}, "selectedPaths": []any{"status"}}
	case voiceai.TypeKnowledgeBase:
		return map[string]any{"triggerPrompt": "When caller asks about pricing", "knowledgeBaseId": "kbPricing"}
	}
	panic("unknown action type " + actionType)
}

// updateParams are valid parameters of actionType that differ from the
// seeded ones in every field the type has.
func updateParams(actionType string) map[string]any {
	switch actionType {
	case voiceai.TypeCallTransfer:
		return map[string]any{"triggerPrompt": "When the caller is upset", "transferToType": "number", "transferToValue": "+442071234567", "triggerMessage": "One moment please", "hearWhisperMessage": true}
	case voiceai.TypeDataExtraction:
		return map[string]any{"contactFieldId": "cfBirthDate", "description": "Date of birth", "examples": []any{"1985-04-12", "12 April 1985", "04/12/1985", "April 12th", "85-04-12"}}
	case voiceai.TypeInCallDataExtraction:
		return map[string]any{"contactFieldId": "cfInsurer", "description": "Insurance provider", "examples": []any{"Cigna"}, "overwriteExistingValue": true}
	case voiceai.TypeWorkflowTrigger:
		return map[string]any{"triggerPrompt": "When a new patient calls", "triggerMessage": "Sending forms", "workflowId": "wfNewPatient"}
	case voiceai.TypeSMS:
		return map[string]any{"triggerPrompt": "When caller wants directions", "triggerMessage": "I'll text you the address", "messageBody": "We are at 1 Main St."}
	case voiceai.TypeAppointmentBooking:
		return map[string]any{"calendarId": "calCleaning", "daysOfOfferingDates": 14.0, "slotsPerDay": 6.0, "hoursBetweenSlots": 0.5}
	case voiceai.TypeCustomAction:
		return map[string]any{
			"triggerPrompt": "When caller wants a callback", "triggerMessage": "Booking a callback",
			"apiDetails": map[string]any{
				"url": "https://hooks.example.com/callbacks", "method": "POST", "authenticationRequired": true, "authenticationValue": "token123",
				"headers":    []any{map[string]any{"key": "Content-Type", "value": "application/json"}, map[string]any{"key": "X-Source", "value": "voice"}},
				"parameters": []any{map[string]any{"name": "phone", "description": "Caller phone", "type": "string", "example": "+15551234567"}, map[string]any{"name": "reason"}},
			},
		}
	case voiceai.TypeKnowledgeBase:
		return map[string]any{"triggerPrompt": "When caller asks about insurance", "knowledgeBaseId": "kbInsurance"}
	}
	panic("unknown action type " + actionType)
}

// fixture gives Alpha's agentA one action of each type, Alpha's agentA2 one
// SMS action, and Bravo's agentB one SMS action.
func fixture(t *testing.T) string {
	t.Helper()
	type action struct {
		ID               string         `json:"id"`
		ActionType       string         `json:"actionType"`
		Name             string         `json:"name"`
		ActionParameters map[string]any `json:"actionParameters"`
	}
	type agent struct {
		ID         string   `json:"id"`
		LocationID string   `json:"locationId"`
		Name       string   `json:"name"`
		DateAdded  string   `json:"dateAdded"`
		Actions    []action `json:"actions"`
	}
	var alpha []action
	for _, at := range voiceai.ActionTypes {
		alpha = append(alpha, action{actionID(at), at, "Seeded " + at, seedParams(at)})
	}
	sms := func(id string) []action {
		return []action{{id, voiceai.TypeSMS, "Seeded SMS", seedParams(voiceai.TypeSMS)}}
	}
	raw, err := json.Marshal(map[string]any{"agents": []agent{
		{agentA, acctA, "Receptionist", seededDate, alpha},
		{agentA2, acctA, "After hours", seededDate, sms(actionA2)},
		{agentB, acctB, "Bravo line", seededDate, sms(actionB)},
	}})
	require.NoError(t, err)
	return string(raw)
}

func newEnv(t *testing.T) (*testenv.Env, string, *voiceai.Agents) {
	t.Helper()
	env := testenv.New(t, []app.Area{voiceai.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	env.Seed(t, voiceai.Area, fixture(t))
	token, _ := env.Token(t, acctA)
	return env, token, voiceai.NewAgents(env.Table)
}

// body is a valid update request of Alpha's agentA action of actionType.
func body(actionType string, params map[string]any) map[string]any {
	return map[string]any{"agentId": agentA, "locationId": acctA, "actionType": actionType, "name": "Updated " + actionType, "actionParameters": params}
}

func update(t *testing.T, env *testenv.Env, token, id string, b any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "PUT", Path: actionPath(id), Token: token, Body: b})
}

type stored struct {
	action  *voiceai.Action
	version int64
}

func getAction(t *testing.T, store *voiceai.Agents, account, agent, id string) stored {
	t.Helper()
	a, v, err := store.GetAction(context.Background(), account, agent, id)
	require.NoError(t, err)
	return stored{a, v}
}

// asJSON is v as JSON text, to compare parameters whatever their Go types.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}
