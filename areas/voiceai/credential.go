package voiceai

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/secrets"
)

// The credential a custom action sends to the user's own API
// (apiDetails.authenticationValue) is a secret users hand the API: it is
// stored sealed (Action.Credential, see package secrets), and everywhere
// else, in the stored parameters and in answers, only its mask stands in
// its place.

const credentialPath = paramsField + ".apiDetails.authenticationValue"

// credentialBinding names the action a credential belongs to: a sealed
// credential opens only for it.
func credentialBinding(accountID, agentID, actionID string) secrets.Binding {
	return secrets.Binding{"account": accountID, "agent": agentID, "action": actionID, "field": "voice-ai/apiDetails.authenticationValue"}
}

// credentialChange is what a request does to an action's stored credential.
type credentialChange struct {
	// none: the parameters hold no credential (another action type, or
	// authenticationRequired false); the stored one is dropped.
	none bool
	// sealed is a new credential, sealed (the parameters hold its mask).
	sealed *secrets.Sealed
	// Otherwise the stored credential is kept; sentMask is the mask the
	// request sent back in its place, "" when it left the value out.
	sentMask string
}

// sealCredential takes a new credential out of checked parameters, sealed
// for the action b names, leaving its mask in its place. A credential left
// out or sent back masked is to be kept (see keep).
func sealCredential(ctx context.Context, keeper *secrets.Keeper, b secrets.Binding, params Parameters) (credentialChange, error) {
	details, _ := params["apiDetails"].(Parameters)
	if required, _ := details["authenticationRequired"].(bool); !required {
		return credentialChange{none: true}, nil
	}
	value, sent := details["authenticationValue"].(string)
	switch {
	case !sent:
		return credentialChange{}, nil
	case secrets.LooksMasked(value):
		return credentialChange{sentMask: value}, nil
	}
	sealed, err := keeper.Seal(ctx, value, b)
	if err != nil {
		return credentialChange{}, sealError(err)
	}
	details["authenticationValue"] = secrets.Mask(value)
	return credentialChange{sealed: &sealed}, nil
}

// keeps reports whether the change keeps the stored credential.
func (c credentialChange) keeps() bool { return !c.none && c.sealed == nil }

// apply makes the change on the stored action a, whose parameters are to
// become params. Keeping the stored credential is refused when there is
// none, when the mask sent back is not its mask, or when the URL moves to
// another host: a credential is only ever sent where its owner sent it.
func (c credentialChange) apply(a *Action, params Parameters) error {
	switch {
	case c.none:
		a.Credential = nil
		return nil
	case c.sealed != nil:
		a.Credential = c.sealed
		return nil
	}
	stored, _ := a.ActionParameters["apiDetails"].(map[string]any)
	storedMask, _ := stored["authenticationValue"].(string)
	details := params["apiDetails"].(Parameters)
	switch {
	case a.ActionType != TypeCustomAction || a.Credential == nil:
		return apierror.Invalid(credentialPath + " is required: the action has no stored value to keep")
	case c.sentMask != "" && c.sentMask != storedMask:
		return apierror.Invalid(credentialPath + " is a masked value that is not this action's: send the value itself, or leave it out to keep the stored one")
	case host(stored["url"]) != host(details["url"]):
		return apierror.Invalid(credentialPath + " must be sent again when apiDetails.url moves to another host: the stored value is only sent where it was meant to go")
	}
	details["authenticationValue"] = storedMask
	return nil
}

// host is the host and port of a checked URL.
func host(v any) string {
	s, _ := v.(string)
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// sealError is the API error for a failure to seal: a client may retry
// when the key's service was unavailable.
func sealError(err error) error {
	if errors.Is(err, secrets.ErrUnavailable) {
		return apierror.Unavailable(err, time.Second)
	}
	return apierror.Internal(err)
}

// OpenCredential returns a custom action's credential, opened with keeper,
// for the code that calls the user's API ("" when the action has none).
func OpenCredential(ctx context.Context, keeper *secrets.Keeper, a *Action) (string, error) {
	if a.Credential == nil {
		return "", nil
	}
	return keeper.Open(ctx, *a.Credential, credentialBinding(a.LocationID, a.AgentID, a.ID))
}
