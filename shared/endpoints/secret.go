package endpoints

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
)

// An endpoint's signing secret: its deliveries are signed the Standard
// Webhooks way (deliveries.SignStandard) with it, beside x-ghl-signature.
// The deliverer needs the secret itself, so it is sealed (package secrets,
// bound to the endpoint), never hashed; it is shown once, in the answer of
// Add or RotateSecret (Endpoint.SigningSecret), and never logged. A
// rotation may keep the previous secret signing too for SecretGrace, so a
// receiver can take the new one without missing a delivery.

// SecretGrace is how long a rotation that keeps the previous secret lets it
// sign beside the new one (Svix's and an app's client secret's 24 hours).
const SecretGrace = 24 * time.Hour

// AuditSecretRotated is the audit action of a new signing secret.
const AuditSecretRotated = "webhook-secret-rotated"

// secretField names the sealed field in its binding (and in the KMS key's
// encryption context, which the functions' policies condition on).
const secretField = "webhooks/signingSecret"

// secretBinding binds a sealed secret to its endpoint: a sealed value
// copied to another endpoint does not open there.
func secretBinding(accountID, id string) secrets.Binding {
	return secrets.Binding{"account": accountID, "endpoint": id, "field": secretField}
}

// Sealing returns the store sealing and opening signing secrets with
// keeper: Add and RotateSecret need one, and so does the deliverer's
// SigningKeys for an endpoint that has a secret.
func (s *Store) Sealing(keeper *secrets.Keeper) *Store {
	c := *s
	c.keeper = keeper
	return &c
}

// newSecret draws a secret for the account's endpoint id and seals it.
func (s *Store) newSecret(ctx context.Context, accountID, id string) (string, secrets.Sealed, error) {
	secret := deliveries.NewSecret()
	sealed, err := s.keeper.Seal(ctx, secret, secretBinding(accountID, id))
	if errors.Is(err, secrets.ErrUnavailable) {
		return "", secrets.Sealed{}, apierror.Unavailable(err, time.Second)
	}
	return secret, sealed, err
}

// setSecret makes secret, sealed, e's current secret, made at stamp.
func (e *Endpoint) setSecret(secret string, sealed secrets.Sealed, stamp string) {
	e.Secret, e.SecretHint, e.SecretCreatedAt, e.SigningSecret = &sealed, secrets.Mask(secret), stamp, secret
}

// Rotation is a new signing secret for an endpoint.
type Rotation struct {
	AccountID, EndpointID string
	// KeepOld keeps the current secret signing beside the new one for
	// SecretGrace; otherwise it signs nothing from now on. An earlier
	// rotation's previous secret stops signing either way.
	KeepOld bool
	By      auth.Actor
}

// RotateSecret gives the endpoint a new signing secret (its first, for an
// endpoint added before secrets were), with its audit entry, and returns
// the endpoint with the new secret in SigningSecret: the one time it is
// shown.
func (s *Store) RotateSecret(ctx context.Context, r Rotation) (Endpoint, error) {
	if _, err := s.Get(ctx, r.AccountID, r.EndpointID); err != nil {
		return Endpoint{}, err
	}
	secret, sealed, err := s.newSecret(ctx, r.AccountID, r.EndpointID)
	if err != nil {
		return Endpoint{}, err
	}
	now := s.clock.Now()
	stamp := clock.Timestamp(now)
	detail := ""
	changed, err := s.items.Update(ctx, r.AccountID, r.EndpointID, func(e *Endpoint) error {
		switch {
		case e.Secret == nil:
			e.PreviousSecret, e.PreviousSecretUntil = nil, ""
			detail = "its first signing secret"
		case r.KeepOld:
			e.PreviousSecret, e.PreviousSecretUntil = e.Secret, clock.Timestamp(now.Add(SecretGrace))
			detail = "the previous secret signs too until " + e.PreviousSecretUntil
		default:
			e.PreviousSecret, e.PreviousSecretUntil = nil, ""
			detail = "the previous secret signs no more"
		}
		e.setSecret(secret, sealed, stamp)
		e.UpdatedAt = stamp
		return nil
	}, storage.Alongside(func(tx *storage.Tx, e *Endpoint) {
		auth.AddAuditEntry(tx, storage.AccountPK(r.AccountID), now, r.By, AuditSecretRotated, e.ID, e.URL, detail)
	}))
	if err != nil {
		return Endpoint{}, err
	}
	if changed == nil {
		return Endpoint{}, ErrNoEndpoint
	}
	changed.SigningSecret = secret
	return *changed, nil
}

// SigningKeys are the keys e's attempt made at now is signed with: its
// secret's, then its previous secret's while its grace lasts; none for an
// endpoint without a secret.
func (s *Store) SigningKeys(ctx context.Context, e Endpoint, now time.Time) ([][]byte, error) {
	signing := []*secrets.Sealed{e.Secret}
	if clock.Parse(e.PreviousSecretUntil).After(now) {
		signing = append(signing, e.PreviousSecret)
	}
	var keys [][]byte
	for _, sealed := range signing {
		if sealed == nil {
			continue
		}
		secret, err := s.keeper.Open(ctx, *sealed, secretBinding(e.AccountID, e.ID))
		if err != nil {
			return nil, fmt.Errorf("the signing secret of endpoint %s: %w", e.ID, err)
		}
		key, err := deliveries.ParseSecret(secret)
		if err != nil {
			return nil, fmt.Errorf("the signing secret of endpoint %s: %w", e.ID, err)
		}
		keys = append(keys, key)
	}
	return keys, nil
}
