// Package kmskey is the AWS KMS key source of package secrets: each secret's
// data key comes from GenerateDataKey under one KMS key, with the secret's
// binding as the encryption context, and is opened with Decrypt. Only the
// functions of areas that keep secrets link it (see app.Area.OpenKMSKey).
package kmskey

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/bizplatform/api/shared/secrets"
)

// API is the part of the KMS client the key source calls.
type API interface {
	GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, opts ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error)
	Decrypt(ctx context.Context, in *kms.DecryptInput, opts ...func(*kms.Options)) (*kms.DecryptOutput, error)
}

var _ API = (*kms.Client)(nil)

// Bounds of a KMS call: a sealed secret is part of a request, which must
// answer well within the function's timeout.
const (
	callTimeout = 3 * time.Second
	maxAttempts = 3
	maxBackoff  = 200 * time.Millisecond
)

// NewClient builds a KMS client on cfg's region and credentials (the
// functions' come from the Lambda environment: dynamo.EnvConfig), bounded
// like the DynamoDB client: a few attempts, all within callTimeout.
// endpoint, when set, overrides the service's address.
func NewClient(cfg aws.Config, endpoint string) *kms.Client {
	cfg.HTTPClient = awshttp.NewBuildableClient().WithTimeout(callTimeout)
	cfg.Retryer = func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = maxAttempts
			o.MaxBackoff = maxBackoff
		})
	}
	return kms.NewFromConfig(cfg, func(o *kms.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
}

// Key is a KMS key as a key source.
type Key struct {
	client API
	keyID  string
	opened openedKeys
}

var _ secrets.KeySource = (*Key)(nil)

// New returns the key source of the KMS key keyID (an id, ARN or alias).
// It makes no call: the first is made when a secret is sealed or opened.
func New(client API, keyID string) *Key {
	return &Key{client: client, keyID: keyID, opened: openedKeys{keys: map[string][]byte{}}}
}

// Open builds the KMS client from cfg and returns the key source of keyID:
// the app.Area.OpenKMSKey of areas that keep secrets.
func Open(cfg aws.Config, keyID string) secrets.KeySource {
	return New(NewClient(cfg, ""), keyID)
}

// NewDataKey asks KMS for a fresh AES-256 data key bound to b.
func (k *Key) NewDataKey(ctx context.Context, b secrets.Binding) (plain, sealed []byte, keyID string, err error) {
	out, err := k.client.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{
		KeyId:             aws.String(k.keyID),
		KeySpec:           types.DataKeySpecAes256,
		EncryptionContext: b,
	})
	if err != nil {
		return nil, nil, "", classify("GenerateDataKey", err)
	}
	if len(out.Plaintext) != secrets.KeySize || len(out.CiphertextBlob) == 0 {
		return nil, nil, "", errors.New("kms GenerateDataKey: unexpected answer")
	}
	return out.Plaintext, out.CiphertextBlob, aws.ToString(out.KeyId), nil
}

// OpenDataKey asks KMS to decrypt a data key under the same binding. Data
// keys once opened are kept (a bounded number), so a secret used again and
// again costs one KMS call.
func (k *Key) OpenDataKey(ctx context.Context, keyID string, sealed []byte, b secrets.Binding) ([]byte, error) {
	cacheKey := keyID + "\x00" + string(sealed) + "\x00" + string(b.Canonical())
	if plain, ok := k.opened.get(cacheKey); ok {
		return plain, nil
	}
	out, err := k.client.Decrypt(ctx, &kms.DecryptInput{
		KeyId:             aws.String(keyID),
		CiphertextBlob:    sealed,
		EncryptionContext: b,
	})
	if err != nil {
		return nil, classify("Decrypt", err)
	}
	k.opened.put(cacheKey, out.Plaintext)
	return append([]byte(nil), out.Plaintext...), nil
}

// classify marks the failures a retry may overcome (throttling, a fault of
// the service, no answer in time) as secrets.ErrUnavailable.
func classify(op string, err error) error {
	var apiErr smithy.APIError
	var sendErr *smithyhttp.RequestSendError
	switch {
	case errors.As(err, &apiErr) && (apiErr.ErrorFault() == smithy.FaultServer || apiErr.ErrorCode() == "ThrottlingException"),
		errors.As(err, &sendErr), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("kms %s: %w: %w", op, secrets.ErrUnavailable, err)
	default:
		return fmt.Errorf("kms %s: %w", op, err)
	}
}

// maxOpenedKeys bounds the data keys kept in memory.
const maxOpenedKeys = 256

// openedKeys holds opened data keys, forgetting the oldest past the bound.
type openedKeys struct {
	mu    sync.Mutex
	keys  map[string][]byte
	order []string
}

func (c *openedKeys) get(k string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.keys[k]
	return append([]byte(nil), v...), ok
}

func (c *openedKeys) put(k string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.keys[k]; ok {
		return
	}
	if len(c.order) >= maxOpenedKeys {
		oldest := c.order[0]
		c.order = c.order[1:]
		clear(c.keys[oldest])
		delete(c.keys, oldest)
	}
	c.keys[k] = append([]byte(nil), v...)
	c.order = append(c.order, k)
}
