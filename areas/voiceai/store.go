package voiceai

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/apierror"
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

func agentKey(accountID, agentID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "VOICEAGENT#" + agentID}
}

// An action's key holds its agent: reading it with the agent named in a
// request proves in one read that the action belongs to that agent of that
// account.
func actionKey(accountID, agentID, actionID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "VOICEACTION#" + agentID + "#" + actionID}
}

type agentItem struct {
	storage.Key
	Agent
}

type actionItem struct {
	storage.Key
	// Version counts the writes of the action; each update is conditional on
	// the version it read.
	Version int64 `dynamodbav:"version"`
	Action
}

func newActionItem(a Action, version int64) actionItem {
	return actionItem{Key: actionKey(a.LocationID, a.AgentID, a.ID), Version: version, Action: a}
}

// Agents reads and writes voice agents and their actions.
type Agents struct {
	table *storage.Table
}

// NewAgents returns the agents on table.
func NewAgents(table *storage.Table) *Agents { return &Agents{table: table} }

// GetAgent returns the account's agent, or nil.
func (s *Agents) GetAgent(ctx context.Context, accountID, agentID string) (*Agent, error) {
	item, err := storage.Get[agentItem](ctx, s.table, agentKey(accountID, agentID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Agent, nil
}

// GetAction returns the action of the account's agent and its version, or
// nil when that agent has no such action.
func (s *Agents) GetAction(ctx context.Context, accountID, agentID, actionID string) (*Action, int64, error) {
	item, err := storage.Get[actionItem](ctx, s.table, actionKey(accountID, agentID, actionID))
	if err != nil || item == nil {
		return nil, 0, err
	}
	return &item.Action, item.Version, nil
}

// maxUpdateAttempts bounds the read-write retries of one update under
// concurrent writers.
const maxUpdateAttempts = 16

var errTooManyConflicts = errors.New("update action: too many concurrent writes")

// UpdateAction applies change to the action of the account's agent and
// stores the result, which it returns; nil when there is no such action.
// The action is one item, rewritten whole by one put conditional on the
// version read, so a concurrent write makes the put fail and the update
// start again from a fresh read: no write is lost or half-applied.
func (s *Agents) UpdateAction(ctx context.Context, accountID, agentID, actionID string, change func(*Action)) (*Action, error) {
	for attempt := range maxUpdateAttempts {
		if attempt > 0 {
			// A short random pause spreads writers that lost the same race.
			if err := pause(ctx, time.Duration(rand.IntN(2*attempt+1))*time.Millisecond); err != nil {
				return nil, err
			}
		}
		a, version, err := s.GetAction(ctx, accountID, agentID, actionID)
		if err != nil || a == nil {
			return nil, err
		}
		change(a)
		cond := expression.Name("version").Equal(expression.Value(version))
		err = s.table.Put(ctx, newActionItem(*a, version+1), &cond)
		if storage.IsConditionFailed(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return a, nil
	}
	// Retryable: the client tries again once the burst of writes is over.
	return nil, apierror.Unavailable(errTooManyConflicts, time.Second)
}

func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
