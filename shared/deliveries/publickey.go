package deliveries

import (
	"context"
	"errors"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// The public half of the key x-ghl-signature is made with, as receivers
// verify it, published in the table by whoever loads the key to sign with
// it or to hand it out (the deliverer at its start and each reread, the
// CLI's apps webhook-key): the portal and `platformctl webhooks key` show
// it from there, so an account's admins read the key that signs, and
// neither the portal nor an admin needs the private key's parameter.

// publicKeyKey is the one item of the published key.
var publicKeyKey = storage.Key{PK: "WEBHOOKKEY", SK: "PUBLIC"}

// PublicKey is the published key.
type PublicKey struct {
	// PEM is the key, SubjectPublicKeyInfo in PEM (signingkey.PublicPEM).
	PEM string `dynamodbav:"pem"`
	// Since is when it was first published.
	Since string `dynamodbav:"since"`
}

type publicKeyItem struct {
	storage.Key
	PublicKey
}

// ErrNoPublicKey answers PublishedKey before any key was published.
var ErrNoPublicKey = errors.New("no webhook signing key is published yet: the webhook deliverer publishes the key it signs with when it starts (platformctl apps webhook-key does too)")

// PublishedKey returns the published key.
func PublishedKey(ctx context.Context, table *storage.Table) (PublicKey, error) {
	it, err := storage.Get[publicKeyItem](ctx, table, publicKeyKey)
	if err != nil {
		return PublicKey{}, err
	}
	if it == nil {
		return PublicKey{}, ErrNoPublicKey
	}
	return it.PublicKey, nil
}

// PublishKey makes pem the published key at now, and reports whether it
// changed anything: a read, and a write only when another key (or none)
// was published.
func PublishKey(ctx context.Context, table *storage.Table, pem string, now time.Time) (bool, error) {
	have, err := PublishedKey(ctx, table)
	switch {
	case err == nil && have.PEM == pem:
		return false, nil
	case err != nil && !errors.Is(err, ErrNoPublicKey):
		return false, err
	}
	return true, table.Put(ctx, publicKeyItem{Key: publicKeyKey, PublicKey: PublicKey{PEM: pem, Since: clock.Timestamp(now)}}, nil)
}
