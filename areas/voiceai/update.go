package voiceai

import (
	"encoding/json"
	"net/http"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
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
}

// actionUpdate is a checked update request.
type actionUpdate struct {
	actionID   string
	agentID    string
	locationID string
	actionType string
	name       string
	parameters Parameters
}

// ActionResponse is the action resource the update answers.
type ActionResponse struct {
	ID               string     `json:"id"`
	ActionType       string     `json:"actionType"`
	Name             string     `json:"name"`
	ActionParameters Parameters `json:"actionParameters"`
}

func parseUpdate(r *http.Request) (actionUpdate, error) {
	var req updateRequest
	if err := httpio.DecodeJSON(r, &req); err != nil {
		return actionUpdate{}, err
	}
	var v validate.Errors
	u := actionUpdate{actionID: r.PathValue("actionId")}
	v.ID("actionId", u.actionID)
	if v.Required("agentId", req.AgentID) && v.ID("agentId", *req.AgentID) {
		u.agentID = *req.AgentID
	}
	if v.Required("locationId", req.LocationID) && v.ID("locationId", *req.LocationID) {
		u.locationID = *req.LocationID
	}
	if v.Required("name", req.Name) && v.MaxLen("name", *req.Name, maxActionNameLen) {
		u.name = *req.Name
	}
	if v.Required("actionType", req.ActionType) && v.OneOf("actionType", *req.ActionType, ActionTypes...) {
		u.actionType = *req.ActionType
	}
	// The parameters are checked against the type the request gives: an
	// update may change an action's type, and replaces its parameters whole.
	u.parameters = parseParameters(&v, u.actionType, req.ActionParameters)
	return u, v.Err()
}

func (h *handler) updateAction(w http.ResponseWriter, r *http.Request) error {
	u, err := parseUpdate(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if _, err := auth.RequireAccount(ctx, u.locationID); err != nil {
		return err
	}
	// A new credential is sealed before anything is stored.
	credential, err := sealCredential(ctx, h.secrets, credentialBinding(u.locationID, u.agentID, u.actionID), u.parameters)
	if err != nil {
		return err
	}
	now := clock.Timestamp(h.clock.Now())
	// The action is read in the caller's partition under the agent the
	// request names: another account's action, or one of another agent, is
	// not found. Keeping the stored credential has rules that need the
	// stored action (the last step of the order of checks): one broken
	// ends the update with nothing written.
	a, err := h.store.UpdateAction(ctx, u.locationID, u.agentID, u.actionID, func(a *Action) error {
		if err := credential.apply(a, u.parameters); err != nil {
			return err
		}
		a.ActionType, a.Name, a.ActionParameters, a.DateUpdated = u.actionType, u.name, u.parameters, now
		return nil
	})
	if err != nil {
		return err
	}
	if a == nil {
		return apierror.NotFound("actionId %s names no action of agent %s in this location", u.actionID, u.agentID)
	}
	return httpio.WriteJSON(w, http.StatusOK, ActionResponse{
		ID: a.ID, ActionType: a.ActionType, Name: a.Name, ActionParameters: a.ActionParameters,
	})
}
