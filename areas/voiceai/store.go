package voiceai

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
)

// Agent is a voice AI agent of an account.
type Agent struct {
	ID         string `dynamodbav:"id" json:"id"`
	LocationID string `dynamodbav:"locationId" json:"locationId"`
	Name       string `dynamodbav:"name" json:"name"`
	DateAdded  string `dynamodbav:"dateAdded" json:"dateAdded"`
}

// Action is an action attached to a voice agent. ActionParameters holds the
// validated parameters of its ActionType (see parameters.go), in the shape
// the API answers.
type Action struct {
	ID               string         `dynamodbav:"id" json:"id"`
	AgentID          string         `dynamodbav:"agentId" json:"agentId"`
	LocationID       string         `dynamodbav:"locationId" json:"locationId"`
	ActionType       string         `dynamodbav:"actionType" json:"actionType"`
	Name             string         `dynamodbav:"name" json:"name"`
	ActionParameters map[string]any `dynamodbav:"actionParameters" json:"actionParameters"`
	DateAdded        string         `dynamodbav:"dateAdded" json:"dateAdded"`
	DateUpdated      string         `dynamodbav:"dateUpdated" json:"dateUpdated"`
	// Credential is a custom action's apiDetails.authenticationValue,
	// sealed; ActionParameters holds its mask (see credential.go).
	Credential *secrets.Sealed `dynamodbav:"credential,omitempty" json:"-"`
}

// actionRecord is an action as stored, with the count of its writes: each
// update is conditional on the version it read (storage.UpdateVersioned).
type actionRecord struct {
	Version int64 `dynamodbav:"version"`
	Action
}

// Agents reads and writes voice agents and their actions, each stored by id
// in its account's partition. An action's id holds its agent's: reading it
// with the agent named in a request proves in one read that the action
// belongs to that agent of that account.
type Agents struct {
	agents  *storage.AccountItems[Agent]
	actions *storage.AccountItems[actionRecord]
}

// NewAgents returns the agents on table.
func NewAgents(table *storage.Table) *Agents {
	return &Agents{
		agents:  storage.NewAccountItems(table, "VOICEAGENT#", func(a Agent) (string, string) { return a.LocationID, a.ID }),
		actions: storage.NewAccountItems(table, "VOICEACTION#", func(a actionRecord) (string, string) { return a.LocationID, actionID(a.AgentID, a.ID) }),
	}
}

// actionID is an action's id within its account: its agent's, then its own.
func actionID(agentID, id string) string { return agentID + "#" + id }

// GetAgent returns the account's agent, or nil.
func (s *Agents) GetAgent(ctx context.Context, accountID, agentID string) (*Agent, error) {
	return s.agents.Get(ctx, accountID, agentID)
}

// GetAction returns the action of the account's agent and its version, or
// nil when that agent has no such action.
func (s *Agents) GetAction(ctx context.Context, accountID, agentID, id string) (*Action, int64, error) {
	rec, err := s.actions.Get(ctx, accountID, actionID(agentID, id))
	if err != nil || rec == nil {
		return nil, 0, err
	}
	return &rec.Action, rec.Version, nil
}

// ActionUpdated is the event of an updated voice-AI action.
var ActionUpdated = events.Type{
	Name: "VoiceAiActionUpdate", Scope: "voice-ai-agent-goals.readonly", Version: 1,
	Summary: "A voice-AI agent's action was updated (PUT /voice-ai/actions/{actionId}); a credential appears only masked.",
	Fields:  Action{},
}

// UpdateAction applies change to the action of the account's agent and
// stores the result, which it returns; nil when there is no such action.
// An error from change ends the update with nothing written.
// The action is one item, rewritten whole by one put conditional on the
// version read (storage.UpdateVersioned), so a concurrent write makes the
// put fail and the update start again from a fresh read: no write is lost or
// half-applied.
//
// The ActionUpdate event is written with the action, in one transaction:
// the action as the answer shows it (a credential only as its mask).
func (s *Agents) UpdateAction(ctx context.Context, accountID, agentID, id string, at time.Time, change func(*Action) error) (*Action, error) {
	rec, err := s.actions.Update(ctx, accountID, actionID(agentID, id), func(rec *actionRecord) error {
		return change(&rec.Action)
	}, storage.Alongside(func(tx *storage.Tx, changed *actionRecord) {
		ActionUpdated.Add(tx, events.Owner{LocationID: accountID}, changed.Action, at)
	}))
	if err != nil || rec == nil {
		return nil, err
	}
	return &rec.Action, nil
}
