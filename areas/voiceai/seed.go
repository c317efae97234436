package voiceai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
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

// seed checks every agent and action, and fills in what the file leaves
// out (an agent's dateAdded: now), before it writes any. Actions are written
// at version 1, added when their agent was.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	s := NewAgents(d.Table)
	now := clock.Timestamp(d.Clock.Now())
	agents := make([]Agent, len(data.Agents))
	var actions []actionRecord
	err := app.CheckRecords("agents", data.Agents, func(ag *SeedAgent) (string, string) { return ag.LocationID, ag.ID }, func(ag *SeedAgent) error {
		if err := checkSeedAgent(&ag.Agent, now); err != nil {
			return err
		}
		return app.CheckRecords("actions", ag.Actions, func(sa *SeedAction) (string, string) { return "", sa.ID }, func(sa *SeedAction) error {
			a, err := seedAction(ag.Agent, *sa)
			if err != nil {
				return err
			}
			// A credential in the data is sealed like one in a request.
			credential, err := sealCredential(ctx, d.Secrets, credentialBinding(ag.LocationID, ag.ID, sa.ID), a.ActionParameters)
			if err != nil {
				return err
			}
			if credential.keeps() {
				return fmt.Errorf("%s must be given (there is no stored value to keep)", credentialPath)
			}
			a.Credential = credential.sealed
			actions = append(actions, actionRecord{Version: 1, Action: a})
			return nil
		})
	})
	if err != nil {
		return err
	}
	for i, ag := range data.Agents {
		agents[i] = ag.Agent
	}
	var l storage.Loading
	storage.Load(&l, s.agents, agents, nil)
	storage.Load(&l, s.actions, actions, nil)
	return l.Write(ctx, d.Table)
}

func checkSeedAgent(ag *Agent, now string) error {
	var v validate.Errors
	v.ID("id", ag.ID)
	v.ID("locationId", ag.LocationID)
	v.Time("dateAdded", &ag.DateAdded, now)
	return v.Err()
}

// seedAction checks a demo action of ag by the update's rules.
func seedAction(ag Agent, sa SeedAction) (Action, error) {
	if msg := validate.IDProblem("id", sa.ID); msg != "" {
		return Action{}, errors.New(msg)
	}
	if sa.Name == "" || len([]rune(sa.Name)) > maxActionNameLen {
		return Action{}, fmt.Errorf("name must be 1 to %d characters", maxActionNameLen)
	}
	if !slices.Contains(ActionTypes, sa.ActionType) {
		return Action{}, fmt.Errorf("actionType %q is not one of %v", sa.ActionType, ActionTypes)
	}
	var v validate.Errors
	params := parseParameters(&v, sa.ActionType, sa.ActionParameters)
	if err := v.Err(); err != nil {
		return Action{}, err
	}
	return Action{
		ID: sa.ID, AgentID: ag.ID, LocationID: ag.LocationID, ActionType: sa.ActionType, Name: sa.Name,
		ActionParameters: params, DateAdded: ag.DateAdded, DateUpdated: ag.DateAdded,
	}, nil
}
