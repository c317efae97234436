package voiceai_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/secrets"
)

type actionBody struct {
	ID               string         `json:"id"`
	ActionType       string         `json:"actionType"`
	Name             string         `json:"name"`
	ActionParameters map[string]any `json:"actionParameters"`
}

func TestUpdateActionReplacesNameAndParametersOfEachType(t *testing.T) {
	env, token, store := newEnv(t)
	env.Clock.Advance(time.Hour)
	now := clock.Timestamp(env.Clock.Now())
	for _, actionType := range voiceai.ActionTypes {
		t.Run("an action of type "+actionType+" is updated and stored", func(t *testing.T) {
			id := actionID(actionType)
			params := updateParams(actionType)
			resp := update(t, env, token, id, body(actionType, params))
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)

			want := map[string]any{}
			for k, v := range params {
				want[k] = v
			}
			if actionType == voiceai.TypeDataExtraction {
				want["overwriteExistingValue"] = false // the public API's default
			}
			if actionType == voiceai.TypeCustomAction {
				// The credential is stored sealed; its mask stands in its place.
				details := maps.Clone(params["apiDetails"].(map[string]any))
				details["authenticationValue"] = secrets.Mask(details["authenticationValue"].(string))
				want["apiDetails"] = details
			}
			assert.JSONEq(t, asJSON(t, map[string]any{
				"id": id, "actionType": actionType, "name": "Updated " + actionType, "actionParameters": want,
			}), string(resp.Body), "the answer is the action resource")

			got := getAction(t, store, acctA, agentA, id)
			require.NotNil(t, got.action)
			assert.Equal(t, "Updated "+actionType, got.action.Name)
			assert.Equal(t, actionType, got.action.ActionType)
			assert.JSONEq(t, asJSON(t, want), asJSON(t, got.action.ActionParameters), "stored parameters")
			assert.Equal(t, agentA, got.action.AgentID)
			assert.Equal(t, acctA, got.action.LocationID)
			assert.Equal(t, seededDate, got.action.DateAdded)
			assert.Equal(t, now, got.action.DateUpdated)
			assert.Equal(t, int64(2), got.version)
		})
	}
}

func TestUpdateActionEdgeValuesAreAccepted(t *testing.T) {
	env, token, store := newEnv(t)
	custom := func(method string, paths any) map[string]any {
		p := seedParams(voiceai.TypeCustomAction)
		p["apiDetails"].(map[string]any)["method"] = method
		if paths == nil {
			delete(p, "selectedPaths")
		} else {
			p["selectedPaths"] = paths
		}
		return p
	}
	transfer := func(number string) map[string]any {
		p := seedParams(voiceai.TypeCallTransfer)
		p["transferToValue"] = number
		return p
	}
	cases := []struct {
		name       string
		actionType string
		params     map[string]any
	}{
		{"the shortest phone number, 11 characters", voiceai.TypeCallTransfer, transfer("+1234567890")},
		{"the longest phone number, 16 characters", voiceai.TypeCallTransfer, transfer("+123456789012345")},
		{"a POST custom action with an empty selectedPaths", voiceai.TypeCustomAction, custom("POST", []any{})},
		{"a POST custom action without selectedPaths", voiceai.TypeCustomAction, custom("POST", nil)},
		{"authenticationRequired false with an empty authenticationValue", voiceai.TypeCustomAction, func() map[string]any {
			p := custom("GET", []any{"data.id"})
			p["apiDetails"].(map[string]any)["authenticationRequired"] = false
			p["apiDetails"].(map[string]any)["authenticationValue"] = ""
			return p
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := update(t, env, token, actionID(tc.actionType), body(tc.actionType, tc.params))
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			got := getAction(t, store, acctA, agentA, actionID(tc.actionType))
			assert.Equal(t, "Updated "+tc.actionType, got.action.Name)
		})
	}
	t.Run("an absent authenticationValue is not stored", func(t *testing.T) {
		got := getAction(t, store, acctA, agentA, actionID(voiceai.TypeCustomAction))
		assert.NotContains(t, got.action.ActionParameters["apiDetails"], "authenticationValue")
	})
}

func TestUpdateActionMayChangeTheActionType(t *testing.T) {
	env, token, store := newEnv(t)
	id := actionID(voiceai.TypeSMS)
	params := updateParams(voiceai.TypeKnowledgeBase)
	resp := update(t, env, token, id, body(voiceai.TypeKnowledgeBase, params))
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	got := getAction(t, store, acctA, agentA, id)
	assert.Equal(t, voiceai.TypeKnowledgeBase, got.action.ActionType)
	assert.JSONEq(t, asJSON(t, params), asJSON(t, got.action.ActionParameters), "the old type's parameters are gone")

	t.Run("the parameters are checked against the new type", func(t *testing.T) {
		resp := update(t, env, token, id, body(voiceai.TypeCallTransfer, seedParams(voiceai.TypeSMS)))
		assert.Contains(t, resp.RequireError(t, 422), "property actionParameters.messageBody should not exist")
	})
}

func TestUpdateActionFindsOnlyTheNamedAgentsActionInTheCallersAccount(t *testing.T) {
	env, token, store := newEnv(t)
	bravoBefore := getAction(t, store, acctB, agentB, actionB)
	a2Before := getAction(t, store, acctA, agentA2, actionA2)
	smsBody := func(agent, location string) map[string]any {
		b := body(voiceai.TypeSMS, updateParams(voiceai.TypeSMS))
		b["agentId"], b["locationId"] = agent, location
		return b
	}
	cases := []struct {
		name   string
		id     string
		body   map[string]any
		status int
		msg    string
	}{
		{"another account's action and agent are 404", actionB, smsBody(agentB, acctA), 404, "actionId actBravo names no action of agent agentBravo"},
		{"another account's action under the caller's agent is 404", actionB, smsBody(agentA, acctA), 404, "actionId actBravo"},
		{"the caller's action under another of its agents is 404", actionA2, smsBody(agentA, acctA), 404, "actionId actAlphaTwo"},
		{"an action id nobody has is 404", "actNobody", smsBody(agentA, acctA), 404, "actionId actNobody"},
		{"another account's locationId is 403", actionB, smsBody(agentB, acctB), 403, "does not have access to this location"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := update(t, env, token, tc.id, tc.body)
			assert.Contains(t, resp.RequireError(t, tc.status), tc.msg)
		})
	}
	assert.Equal(t, bravoBefore, getAction(t, store, acctB, agentB, actionB), "Bravo's action is unchanged")
	assert.Equal(t, a2Before, getAction(t, store, acctA, agentA2, actionA2), "the other agent's action is unchanged")
}

func TestUpdateActionConcurrentUpdatesAreAllApplied(t *testing.T) {
	env, token, store := newEnv(t)
	id := actionID(voiceai.TypeSMS)
	const writers = 8
	statuses := make([]int, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := body(voiceai.TypeSMS, updateParams(voiceai.TypeSMS))
			b["name"] = fmt.Sprintf("Writer %d", i)
			statuses[i] = update(t, env, token, id, b).Status
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		assert.Equal(t, http.StatusOK, s, "writer %d", i)
	}
	got := getAction(t, store, acctA, agentA, id)
	assert.Equal(t, int64(1+writers), got.version, "every write was applied once, none lost")
	assert.Regexp(t, `^Writer [0-7]$`, got.action.Name)
}

func TestUpdateActionAuth(t *testing.T) {
	env, _, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.UpdateVoiceAction, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return update(t, env, token, actionID(voiceai.TypeSMS), body(voiceai.TypeSMS, updateParams(voiceai.TypeSMS)))
		},
	})
}

// TestDemoDataServesTheDocumentedExample loads the shipped demo data and
// sends the request docs/api.md shows.
func TestDemoDataServesTheDocumentedExample(t *testing.T) {
	ds, err := demo.Default()
	require.NoError(t, err)
	env := testenv.New(t, []app.Area{voiceai.Area})
	_, err = demo.Load(context.Background(), env.Deps, demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart], "voice-ai": ds["voice-ai"]}, []app.Area{voiceai.Area})
	require.NoError(t, err)
	token, _ := env.Token(t, demo.AccountAlpha)
	store := voiceai.NewAgents(env.Table)

	agent, err := store.GetAgent(context.Background(), demo.AccountAlpha, "demoAgtAlpha00000001")
	require.NoError(t, err)
	require.NotNil(t, agent)
	for _, actionType := range voiceai.ActionTypes {
		found := false
		for _, id := range []string{"demoActAlphaCallTransfer", "demoActAlphaDataExtraction", "demoActAlphaInCallExtraction", "demoActAlphaWorkflowTrigger",
			"demoActAlphaSms", "demoActAlphaAppointment", "demoActAlphaCustomAction", "demoActAlphaKnowledgeBase"} {
			if a := getAction(t, store, demo.AccountAlpha, agent.ID, id).action; a != nil && a.ActionType == actionType {
				found = true
			}
		}
		assert.True(t, found, "the demo agent has a %s action", actionType)
	}

	resp := update(t, env, token, "demoActAlphaCallTransfer", map[string]any{
		"agentId": "demoAgtAlpha00000001", "locationId": demo.AccountAlpha, "actionType": "CALL_TRANSFER", "name": "Transfer to front desk lead",
		"actionParameters": map[string]any{
			"triggerPrompt": "When the caller asks for a person or is upset", "transferToType": "number",
			"transferToValue": "+15550104478", "triggerMessage": "Let me put you through to our front desk lead.", "hearWhisperMessage": true,
		},
	})
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	var got actionBody
	resp.JSON(t, &got)
	assert.Equal(t, "demoActAlphaCallTransfer", got.ID)
	assert.Equal(t, "+15550104478", got.ActionParameters["transferToValue"])

	t.Run("Bravo's demo action is not Alpha's", func(t *testing.T) {
		b := body(voiceai.TypeSMS, seedParams(voiceai.TypeSMS))
		b["locationId"], b["agentId"] = demo.AccountAlpha, "demoAgtBravo00000001"
		resp := update(t, env, token, "demoActBravoSms", b)
		resp.RequireError(t, http.StatusNotFound)
	})
}
