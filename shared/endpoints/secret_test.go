package endpoints_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
)

// keysOf opens e's signing keys at now, as the deliverer does.
func keysOf(t *testing.T, store *endpoints.Store, e endpoints.Endpoint, now time.Time) [][]byte {
	t.Helper()
	keys, err := store.SigningKeys(context.Background(), e, now)
	require.NoError(t, err)
	return keys
}

func keyOf(t *testing.T, secret string) []byte {
	t.Helper()
	key, err := deliveries.ParseSecret(secret)
	require.NoError(t, err)
	return key
}

func TestANewEndpointHasASigningSecretShownOnceAndStoredOnlySealed(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()
	added, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)

	assert.Regexp(t, `^whsec_[A-Za-z0-9+/]{43}=$`, added.SigningSecret, "whsec_ and the base64 of 32 bytes")
	assert.Equal(t, secrets.Mask(added.SigningSecret), added.SecretHint)
	assert.Equal(t, [][]byte{keyOf(t, added.SigningSecret)}, keysOf(t, store, added, env.Clock.Now()))

	item, err := storage.Get[map[string]any](ctx, env.Table, storage.Key{PK: storage.AccountPK(acct), SK: "WEBHOOK#" + added.ID})
	require.NoError(t, err)
	require.NotNil(t, item)
	stored := *item
	dump, _ := json.Marshal(stored)
	secretBody := strings.TrimPrefix(added.SigningSecret, deliveries.SecretPrefix)
	assert.NotContains(t, string(dump), secretBody, "the item holds the secret sealed only")
	assert.Contains(t, stored, "secret")

	read, err := store.Get(ctx, acct, added.ID)
	require.NoError(t, err)
	assert.Empty(t, read.SigningSecret, "a read never shows it again")
	listed, err := json.Marshal(read)
	require.NoError(t, err)
	assert.NotContains(t, string(listed), secretBody)
	assert.Equal(t, [][]byte{keyOf(t, added.SigningSecret)}, keysOf(t, store, read, env.Clock.Now()), "the deliverer opens what was shown")
}

func TestASealedSecretOpensForItsOwnEndpointOnly(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()
	a, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/a"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	b, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/b"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	b.Secret = a.Secret // a's sealed secret copied onto b
	_, err = store.SigningKeys(ctx, b, env.Clock.Now())
	assert.Error(t, err)
}

func TestAStoreWithoutAKeeperAddsNoEndpoint(t *testing.T) {
	_, env := newStore(t)
	bare := endpoints.New(env.Table, env.Clock, false)
	_, err := bare.Add(context.Background(), acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
	assert.ErrorIs(t, err, secrets.ErrNoKeeper, "never an endpoint whose deliveries cannot be signed")
	list, err := bare.List(context.Background(), acct)
	require.NoError(t, err)
	assert.Empty(t, list)
}

func TestRotatingTheSecret(t *testing.T) {
	t.Run("keeping the old one signs with both for the grace period, the new one first", func(t *testing.T) {
		store, env := newStore(t)
		ctx := context.Background()
		added, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
		require.NoError(t, err)
		rotated, err := store.RotateSecret(ctx, endpoints.Rotation{AccountID: acct, EndpointID: added.ID, KeepOld: true, By: admin})
		require.NoError(t, err)
		assert.NotEqual(t, added.SigningSecret, rotated.SigningSecret)
		now := env.Clock.Now()
		assert.Equal(t, now.Add(endpoints.SecretGrace).UTC().Format("2006-01-02T15:04:05.000Z"), rotated.PreviousSecretUntil)
		want := [][]byte{keyOf(t, rotated.SigningSecret), keyOf(t, added.SigningSecret)}
		assert.Equal(t, want, keysOf(t, store, rotated, now))
		assert.Equal(t, want, keysOf(t, store, rotated, now.Add(endpoints.SecretGrace-time.Second)))
		assert.Equal(t, want[:1], keysOf(t, store, rotated, now.Add(endpoints.SecretGrace)), "the grace over, the new one alone")

		entries, err := env.Server.Tokens.Audit(ctx, acct, 10)
		require.NoError(t, err)
		require.NotEmpty(t, entries)
		assert.Equal(t, endpoints.AuditSecretRotated, entries[0].Action)
		assert.Contains(t, entries[0].Detail, "signs too until "+rotated.PreviousSecretUntil)
		assert.NotContains(t, entries[0].Detail, strings.TrimPrefix(rotated.SigningSecret, deliveries.SecretPrefix))
	})
	t.Run("ending the old one signs with the new one alone at once", func(t *testing.T) {
		store, env := newStore(t)
		ctx := context.Background()
		added, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
		require.NoError(t, err)
		kept, err := store.RotateSecret(ctx, endpoints.Rotation{AccountID: acct, EndpointID: added.ID, KeepOld: true, By: admin})
		require.NoError(t, err)
		ended, err := store.RotateSecret(ctx, endpoints.Rotation{AccountID: acct, EndpointID: added.ID, By: admin})
		require.NoError(t, err)
		assert.Empty(t, ended.PreviousSecretUntil)
		assert.Equal(t, [][]byte{keyOf(t, ended.SigningSecret)}, keysOf(t, store, ended, env.Clock.Now()), "neither earlier secret signs: %s", kept.SecretHint)
	})
	t.Run("an endpoint added before secrets gets its first, with nothing kept", func(t *testing.T) {
		store, env := newStore(t)
		ctx := context.Background()
		added, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
		require.NoError(t, err)
		// What an endpoint of an older version holds: no secret.
		_, err = storage.UpdateVersioned(ctx, env.Table, storage.Key{PK: storage.AccountPK(acct), SK: "WEBHOOK#" + added.ID}, func(e *endpoints.Endpoint) error {
			e.Secret, e.SecretHint, e.SecretCreatedAt = nil, "", ""
			return nil
		})
		require.NoError(t, err)
		old, err := store.Get(ctx, acct, added.ID)
		require.NoError(t, err)
		assert.Empty(t, keysOf(t, store, old, env.Clock.Now()), "x-ghl-signature alone")
		first, err := store.RotateSecret(ctx, endpoints.Rotation{AccountID: acct, EndpointID: added.ID, KeepOld: true, By: admin})
		require.NoError(t, err)
		assert.Empty(t, first.PreviousSecretUntil, "there was nothing to keep")
		assert.Equal(t, [][]byte{keyOf(t, first.SigningSecret)}, keysOf(t, store, first, env.Clock.Now()))
	})
	t.Run("another account's endpoint is no such endpoint", func(t *testing.T) {
		store, env := newStore(t)
		env.Account(t, "acctOther", "coHooks")
		ctx := context.Background()
		added, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
		require.NoError(t, err)
		_, err = store.RotateSecret(ctx, endpoints.Rotation{AccountID: "acctOther", EndpointID: added.ID, By: admin})
		assert.ErrorIs(t, err, endpoints.ErrNoEndpoint)
	})
}
