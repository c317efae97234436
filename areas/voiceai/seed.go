package voiceai

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the voice-ai part of a demo dataset.
type SeedData struct {
	Agents []SeedAgent `json:"agents"`
}

// SeedAgent is an agent and its actions.
type SeedAgent struct {
	Agent
	Actions []SeedAction `json:"actions"`
}

// SeedAction is an action as the API takes it; its parameters pass the
// same checks as an update's.
type SeedAction struct {
	ID               string          `json:"id"`
	ActionType       string          `json:"actionType"`
	Name             string          `json:"name"`
	ActionParameters json.RawMessage `json:"actionParameters"`
}

func seed(ctx context.Context, d app.Deps, raw json.RawMessage) error {
	var data SeedData
	if err := app.DecodeSeed("voice-ai", raw, &data); err != nil {
		return err
	}
	var items []any
	for _, ag := range data.Agents {
		if msg := validate.IDProblem("agent id", ag.ID) + validate.IDProblem("locationId", ag.LocationID); msg != "" {
			return fmt.Errorf("voice-ai: %s", msg)
		}
		if _, err := time.Parse(time.RFC3339, ag.DateAdded); err != nil {
			return fmt.Errorf("voice-ai: agent %s: dateAdded: %w", ag.ID, err)
		}
		items = append(items, agentItem{Key: agentKey(ag.LocationID, ag.ID), Agent: ag.Agent})
		for _, sa := range ag.Actions {
			if msg := validate.IDProblem("action id", sa.ID); msg != "" {
				return fmt.Errorf("voice-ai: %s", msg)
			}
			if sa.Name == "" || len([]rune(sa.Name)) > maxActionNameLen {
				return fmt.Errorf("voice-ai: action %s: name must be 1 to %d characters", sa.ID, maxActionNameLen)
			}
			if !slices.Contains(ActionTypes, sa.ActionType) {
				return fmt.Errorf("voice-ai: action %s: actionType %q is not one of %v", sa.ID, sa.ActionType, ActionTypes)
			}
			var v validate.Errors
			params := parseParameters(&v, sa.ActionType, sa.ActionParameters)
			if err := v.Err(); err != nil {
				return fmt.Errorf("voice-ai: action %s: %w", sa.ID, err)
			}
			// A credential in the data is sealed like one in a request.
			credential, err := sealCredential(ctx, d.Secrets, credentialBinding(ag.LocationID, ag.ID, sa.ID), params)
			if err != nil {
				return fmt.Errorf("voice-ai: action %s: %w", sa.ID, err)
			}
			if credential.keeps() {
				return fmt.Errorf("voice-ai: action %s: %s must be given (there is no stored value to keep)", sa.ID, credentialPath)
			}
			a := Action{
				ID: sa.ID, AgentID: ag.ID, LocationID: ag.LocationID, ActionType: sa.ActionType, Name: sa.Name,
				ActionParameters: params, DateAdded: ag.DateAdded, DateUpdated: ag.DateAdded, Credential: credential.sealed,
			}
			items = append(items, newActionItem(a, 1))
		}
	}
	return d.Table.BatchPut(ctx, items)
}
