package voiceai

import (
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// maxActionNameLen bounds an action's name (the public API states none).
const maxActionNameLen = 100

// updateRequest is the body of PUT /voice-ai/actions/{actionId}.
type updateRequest struct {
	AgentID          *string         `json:"agentId"`
	LocationID       *string         `json:"locationId"`
	ActionType       *string         `json:"actionType"`
	Name             *string         `json:"name"`
	ActionParameters json.RawMessage `json:"actionParameters"`

	parameters Parameters // the parameters of actionType, once checked
}

// ActionResponse is the action resource the update answers.
type ActionResponse struct {
	ID               string     `json:"id"`
	ActionType       string     `json:"actionType"`
	Name             string     `json:"name"`
	ActionParameters Parameters `json:"actionParameters"`
}

// check records every rule the request breaks and keeps the checked
// parameters in req.parameters.
func (req *updateRequest) check(v *validate.Errors) {
	if v.Required("agentId", req.AgentID) {
		v.ID("agentId", *req.AgentID)
	}
	if v.Required("locationId", req.LocationID) {
		v.ID("locationId", *req.LocationID)
	}
	if v.Required("name", req.Name) {
		v.MaxLen("name", *req.Name, maxActionNameLen)
	}
	actionType := ""
	if v.RequiredOneOf("actionType", req.ActionType, ActionTypes...) {
		actionType = *req.ActionType
	}
	// The parameters are checked against the type the request gives: an
	// update may change an action's type, and replaces its parameters whole.
	req.parameters = parseParameters(v, actionType, req.ActionParameters)
}

func (h *handler) updateAction(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	actionID := in.ID("actionId")
	var body updateRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.LocationID)
	if err != nil {
		return err
	}
	agentID, params, ctx := *body.AgentID, body.parameters, r.Context()
	// A new credential is sealed before anything is stored.
	credential, err := sealCredential(ctx, h.secrets, credentialBinding(p.AccountID, agentID, actionID), params)
	if err != nil {
		return err
	}
	at := h.clock.Now()
	now := clock.Timestamp(at)
	// The action is read in the caller's partition under the agent the
	// request names: another account's action, or one of another agent, is
	// not found. Keeping the stored credential has rules that need the
	// stored action (the last step of the order of checks): one broken
	// ends the update with nothing written.
	a, err := h.store.UpdateAction(ctx, p.AccountID, agentID, actionID, at, func(a *Action) error {
		before := *a
		if err := credential.apply(a, params); err != nil {
			return err
		}
		a.ActionType, a.Name, a.ActionParameters, a.DateUpdated = *body.ActionType, *body.Name, params, now
		if unchanged(before, *a) {
			return storage.ErrNoChange // nothing to write, and no event
		}
		return nil
	})
	if err != nil {
		return err
	}
	if a == nil {
		return apierror.NotFound("actionId %s names no action of agent %s in this location", actionID, agentID)
	}
	return httpio.WriteJSON(w, http.StatusOK, ActionResponse{
		ID: a.ID, ActionType: a.ActionType, Name: a.Name, ActionParameters: a.ActionParameters,
	})
}

// unchanged reports whether an update left the action as it was, but for
// its update time (a new credential is sealed anew: always a change).
func unchanged(before, after Action) bool {
	after.DateUpdated = before.DateUpdated
	return reflect.DeepEqual(before, after)
}
