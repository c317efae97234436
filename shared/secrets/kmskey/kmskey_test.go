package kmskey_test

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/secrets/kmskey"
)

const keyARN = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab"

// fakeKMS answers GenerateDataKey and Decrypt over HTTP as AWS KMS does
// (JSON 1.1 protocol), sealing data keys with a key of its own under the
// request's encryption context, so that a Decrypt with another context
// fails as it does in KMS. It records every call.
type fakeKMS struct {
	mu       sync.Mutex
	calls    []kmsCall
	aead     cipher.AEAD
	throttle bool
}

type kmsCall struct {
	Target  string
	KeyID   string            `json:"KeyId"`
	KeySpec string            `json:"KeySpec"`
	Context map[string]string `json:"EncryptionContext"`
	Blob    []byte            `json:"CiphertextBlob"`
}

func newFakeKMS(t *testing.T) (*fakeKMS, *httptest.Server) {
	key := make([]byte, 32)
	_, err := rand.Read(key)
	require.NoError(t, err)
	block, err := aes.NewCipher(key)
	require.NoError(t, err)
	aead, err := cipher.NewGCM(block)
	require.NoError(t, err)
	f := &fakeKMS{aead: aead}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func contextAAD(c map[string]string) []byte {
	raw, _ := json.Marshal(c) // maps marshal with sorted keys
	return raw
}

func (f *fakeKMS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var call kmsCall
	_ = json.Unmarshal(body, &call)
	call.Target = strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "TrentService.")
	f.mu.Lock()
	f.calls = append(f.calls, call)
	throttle := f.throttle
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	fail := func(status int, kind string) {
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"__type": kind, "message": kind})
	}
	if throttle {
		fail(http.StatusBadRequest, "ThrottlingException")
		return
	}
	switch call.Target {
	case "GenerateDataKey":
		plain := make([]byte, 32)
		_, _ = rand.Read(plain)
		nonce := make([]byte, f.aead.NonceSize())
		_, _ = rand.Read(nonce)
		blob := append(nonce, f.aead.Seal(nil, nonce, plain, contextAAD(call.Context))...)
		_ = json.NewEncoder(w).Encode(map[string]any{"KeyId": keyARN, "Plaintext": plain, "CiphertextBlob": blob})
	case "Decrypt":
		n := f.aead.NonceSize()
		if len(call.Blob) < n {
			fail(http.StatusBadRequest, "InvalidCiphertextException")
			return
		}
		plain, err := f.aead.Open(nil, call.Blob[:n], call.Blob[n:], contextAAD(call.Context))
		if err != nil {
			fail(http.StatusBadRequest, "InvalidCiphertextException")
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"KeyId": keyARN, "Plaintext": plain})
	default:
		fail(http.StatusBadRequest, "UnknownOperationException")
	}
}

func (f *fakeKMS) targets() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		out = append(out, c.Target)
	}
	return out
}

func newKeeper(t *testing.T) (*secrets.Keeper, *fakeKMS) {
	f, srv := newFakeKMS(t)
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKID", "SECRET", "")}
	return secrets.NewKeeper(kmskey.New(kmskey.NewClient(cfg, srv.URL), "alias/platform-secrets")), f
}

func TestSecretsSealedWithKMSAreBoundToTheirRecord(t *testing.T) {
	ctx := context.Background()
	k, kms := newKeeper(t)
	binding := secrets.Binding{"account": "acctA", "action": "act1"}
	sealed, err := k.Seal(ctx, "sk_live_51Habcdefgh", binding)
	require.NoError(t, err)
	assert.Equal(t, keyARN, sealed.KeyID, "the key that sealed it is the one KMS names")

	require.Len(t, kms.calls, 1)
	call := kms.calls[0]
	assert.Equal(t, "GenerateDataKey", call.Target)
	assert.Equal(t, "alias/platform-secrets", call.KeyID)
	assert.Equal(t, "AES_256", call.KeySpec)
	assert.Equal(t, map[string]string(binding), call.Context, "the binding is the encryption context")

	t.Run("it opens with one Decrypt, then from memory", func(t *testing.T) {
		for range 3 {
			got, err := k.Open(ctx, sealed, binding)
			require.NoError(t, err)
			assert.Equal(t, "sk_live_51Habcdefgh", got)
		}
		assert.Equal(t, []string{"GenerateDataKey", "Decrypt"}, kms.targets())
	})
	t.Run("KMS refuses it for another record", func(t *testing.T) {
		_, err := k.Open(ctx, sealed, secrets.Binding{"account": "acctB", "action": "act1"})
		assert.ErrorContains(t, err, "InvalidCiphertextException")
	})
	t.Run("throttling is a failure the client may retry", func(t *testing.T) {
		kms.mu.Lock()
		kms.throttle = true
		kms.mu.Unlock()
		_, err := k.Seal(ctx, "another", binding)
		assert.ErrorIs(t, err, secrets.ErrUnavailable)
	})
}

func TestBuildingTheKeySourceCallsNothing(t *testing.T) {
	_, kms := newKeeper(t)
	assert.Empty(t, kms.targets(), "a cold start makes no KMS call")
}
