// Package signingkey keeps the Ed25519 key that signs webhook deliveries:
// its one loader (Load), which reads the setting the configuration names
// (a local file, or an SSM SecureString) and refuses both; the key's making
// and parsing; the public key apps verify with.
package signingkey

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/wiring"
)

// LocalFile is where a local run keeps the key, under the repository's
// root (git-ignored .local/): the local server's and the CLI's default on
// a local engine.
const LocalFile = ".local/webhook-ed25519.pem"

// Errors of Load: a key named neither way, or both.
var (
	ErrNoKey   = errors.New("the webhook signing key: set WEBHOOK_KEY_PARAMETER (an SSM SecureString) or WEBHOOK_KEY_FILE")
	ErrTwoKeys = errors.New("the webhook signing key: WEBHOOK_KEY_PARAMETER and WEBHOOK_KEY_FILE are both set; set one")
)

// Load loads the key, once per start: from the file WEBHOOK_KEY_FILE names
// (made on first use, for its owner only), or from the SSM SecureString
// WEBHOOK_KEY_PARAMETER names (PEM, PKCS #8), read with decryption. Both
// set, or neither, is refused: the deliverer and the CLI never sign and
// publish with two different keys.
func Load(ctx context.Context, cfg config.Config, loadAWS wiring.AWSConfigFunc) (ed25519.PrivateKey, error) {
	if err := oneSetting(cfg); err != nil {
		return nil, err
	}
	if cfg.WebhookKeyFile != "" {
		return loadOrCreateFile(cfg.WebhookKeyFile)
	}
	client, err := ssmClient(ctx, cfg, loadAWS)
	if err != nil {
		return nil, err
	}
	out, err := client.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(cfg.WebhookKeyParameter), WithDecryption: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("read the webhook key %s: %w", cfg.WebhookKeyParameter, err)
	}
	return Parse([]byte(aws.ToString(out.Parameter.Value)))
}

// LoadOrCreate is Load, first making the SSM parameter a new key when it
// does not exist (the CLI's apps webhook-key): CloudFormation cannot make a
// SecureString, so the private key never passes through the template. Of
// two makings at once, the second finds the first's key. Only the CLI
// calls it: the deliverer's code reaches no ssm:PutParameter, nor does its
// policy grant it.
func LoadOrCreate(ctx context.Context, cfg config.Config, loadAWS wiring.AWSConfigFunc) (ed25519.PrivateKey, error) {
	if err := oneSetting(cfg); err != nil {
		return nil, err
	}
	if cfg.WebhookKeyParameter != "" {
		client, err := ssmClient(ctx, cfg, loadAWS)
		if err != nil {
			return nil, err
		}
		if err := createParameter(ctx, client, cfg.WebhookKeyParameter); err != nil {
			return nil, err
		}
	}
	return Load(ctx, cfg, loadAWS)
}

// oneSetting refuses a configuration naming the key twice, or not at all.
func oneSetting(cfg config.Config) error {
	switch {
	case cfg.WebhookKeyFile != "" && cfg.WebhookKeyParameter != "":
		return ErrTwoKeys
	case cfg.WebhookKeyFile == "" && cfg.WebhookKeyParameter == "":
		return ErrNoKey
	}
	return nil
}

func ssmClient(ctx context.Context, cfg config.Config, loadAWS wiring.AWSConfigFunc) (*ssm.Client, error) {
	awsCfg, err := loadAWS(ctx, cfg.Region)
	if err != nil {
		return nil, fmt.Errorf("the SSM client: %w", err)
	}
	return ssm.NewFromConfig(awsCfg), nil
}

// createParameter makes the parameter name a SecureString of a new key
// when it does not exist.
func createParameter(ctx context.Context, client *ssm.Client, name string) error {
	_, err := client.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(name)})
	var missing *ssmtypes.ParameterNotFound
	if !errors.As(err, &missing) {
		return err // there is one (nil), or the read failed
	}
	pemKey, err := New()
	if err != nil {
		return err
	}
	_, err = client.PutParameter(ctx, &ssm.PutParameterInput{Name: aws.String(name), Type: ssmtypes.ParameterTypeSecureString, Value: aws.String(string(pemKey)),
		Overwrite: aws.Bool(false), Description: aws.String("Signs webhook deliveries (Ed25519, PEM PKCS #8)")})
	var exists *ssmtypes.ParameterAlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return fmt.Errorf("create the webhook key %s: %w", name, err)
	}
	return nil
}

// New draws a new key, as PEM (PKCS #8).
func New() ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// Parse reads a PEM (PKCS #8) Ed25519 private key.
func Parse(pemBytes []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, errors.New("webhook key: not a PEM private key")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("webhook key: %w", err)
	}
	priv, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, errors.New("webhook key: not an Ed25519 key")
	}
	return priv, nil
}

// loadOrCreateFile reads the key in path, creating it (mode 0600) when it
// does not exist.
func loadOrCreateFile(path string) (ed25519.PrivateKey, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if raw, err = New(); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		// O_EXCL: of two processes creating it at once, the second reads
		// the first's key.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			return loadOrCreateFile(path)
		}
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(raw); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	return Parse(raw)
}

// PublicPEM is the public half of the key as apps verify webhooks with it:
// PEM, SubjectPublicKeyInfo.
func PublicPEM(priv ed25519.PrivateKey) string {
	der, _ := x509.MarshalPKIXPublicKey(priv.Public()) // an Ed25519 key always marshals
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
