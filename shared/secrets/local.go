package secrets

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LocalKey seals data keys with a key held by the process (AES-256-GCM):
// make run's key file, or a key a test generates.
type LocalKey struct {
	key []byte
	id  string
}

var _ KeySource = (*LocalKey)(nil)

// NewLocalKey returns a key source sealing with key (KeySize bytes).
func NewLocalKey(key []byte) (*LocalKey, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("a local key must be %d bytes, not %d", KeySize, len(key))
	}
	sum := sha256.Sum256(key)
	return &LocalKey{key: append([]byte(nil), key...), id: "local:" + hex.EncodeToString(sum[:8])}, nil
}

// GenerateKey returns a new random local key.
func GenerateKey() ([]byte, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return key, nil
}

// NewEphemeralKeeper returns a keeper with a new random local key that
// lives as long as the process: for tests and measurements whose data is
// thrown away.
func NewEphemeralKeeper() (*Keeper, error) {
	key, err := GenerateKey()
	if err != nil {
		return nil, err
	}
	local, err := NewLocalKey(key)
	if err != nil {
		return nil, err
	}
	return NewKeeper(local), nil
}

// NewDataKey returns a fresh data key and its seal under the local key.
func (l *LocalKey) NewDataKey(_ context.Context, b Binding) (plain, sealed []byte, keyID string, err error) {
	plain, err = GenerateKey()
	if err != nil {
		return nil, nil, "", err
	}
	nonce, ciphertext, err := sealAESGCM(l.key, plain, b.Canonical())
	if err != nil {
		return nil, nil, "", err
	}
	return plain, append(nonce, ciphertext...), l.id, nil
}

// OpenDataKey opens a data key sealed by NewDataKey.
func (l *LocalKey) OpenDataKey(_ context.Context, keyID string, sealed []byte, b Binding) ([]byte, error) {
	if keyID != l.id {
		return nil, fmt.Errorf("sealed with key %s, not with this process's key %s", keyID, l.id)
	}
	const nonceSize = 12
	if len(sealed) < nonceSize {
		return nil, errors.New("malformed sealed data key")
	}
	return openAESGCM(l.key, sealed[:nonceSize], sealed[nonceSize:], b.Canonical())
}

// LocalKeyFile is where make run and platformctl (on a local engine) keep
// their key when the environment names none, under the repository root.
const LocalKeyFile = ".local/secrets.key"

// LoadOrCreateKeyFile returns the local key in the file at path (base64 of
// KeySize bytes), creating the file with a new key, readable by its owner
// only, when there is none. A file others may read is refused: the key
// opens every secret sealed with it.
func LoadOrCreateKeyFile(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createKeyFile(path)
	}
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the key file %s may be read by others (mode %v): chmod 600 it", path, info.Mode().Perm())
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(key) != KeySize {
		return nil, fmt.Errorf("the key file %s does not hold a base64 %d-byte key", path, KeySize)
	}
	return key, nil
}

func createKeyFile(path string) ([]byte, error) {
	key, err := GenerateKey()
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	// Written whole to a file of its own, then linked into place: two
	// processes starting at once never see a half-written key, and the
	// second one to link reads the first one's key.
	tmp, err := os.CreateTemp(dir, ".key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(base64.StdEncoding.EncodeToString(key) + "\n"); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return LoadOrCreateKeyFile(path)
	} else if err != nil {
		return nil, err
	}
	return key, nil
}
