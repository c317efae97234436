package identity

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// Session lifetimes: a session ends SessionMaxAge after sign-in, or after
// SessionIdle without a request, whichever comes first.
const (
	SessionMaxAge = 12 * time.Hour
	SessionIdle   = time.Hour
	// seenEvery bounds the writes that keep a session alive: at most one a
	// minute.
	seenEvery = time.Minute
)

// A session is stored under the SHA-256 of its id, which only the browser's
// cookie holds: PSESSION#<hash> / SESSION. The item carries the table's TTL
// attribute, so ended sessions leave nothing behind.
func sessionKey(id string) storage.Key {
	sum := sha256.Sum256([]byte(id))
	return storage.Key{PK: "PSESSION#" + hex.EncodeToString(sum[:]), SK: "SESSION"}
}

type sessionItem struct {
	storage.Key
	Email       string `dynamodbav:"email"`
	CreatedAt   int64  `dynamodbav:"createdAt"` // epoch ms
	SeenAt      int64  `dynamodbav:"seenAt"`    // epoch ms
	CSRF        string `dynamodbav:"csrf"`
	PasswordSet int64  `dynamodbav:"passwordSetAt"`
	ExpiresAt   int64  `dynamodbav:"expiresAt"` // TTL, epoch s
	// Reveal is a token value waiting to be shown once, encrypted.
	Reveal *revealItem `dynamodbav:"reveal,omitempty"`
}

type revealItem struct {
	AccountID string `dynamodbav:"accountId"`
	TokenID   string `dynamodbav:"tokenId"`
	Kind      string `dynamodbav:"kind,omitempty"`
	Sealed    string `dynamodbav:"sealed"` // base64(nonce || AES-GCM ciphertext)
}

// Session is a signed-in browser's session.
type Session struct {
	// ID is the cookie's value: 256 random bits, never stored.
	ID string
	// CSRF is the token every form of the session carries.
	CSRF      string
	Email     string
	CreatedAt time.Time
}

// Errors of Resume.
var (
	ErrNoSession    = errors.New("no session")
	ErrSessionEnded = errors.New("the session has ended")
)

func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// sessionIDLen is the length of a session id (32 bytes, base64url).
var sessionIDLen = base64.RawURLEncoding.EncodedLen(32)

func (s *Service) newSession(ctx context.Context, l *login) (*Session, error) {
	id, err := randomToken()
	if err != nil {
		return nil, err
	}
	csrf, err := randomToken()
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	it := sessionItem{
		Key: sessionKey(id), Email: l.Email, CreatedAt: now.UnixMilli(), SeenAt: now.UnixMilli(), CSRF: csrf,
		PasswordSet: l.PasswordSet, ExpiresAt: sessionEnd(now, now).Unix(),
	}
	if err := s.table.Put(ctx, it, storage.ItemAbsent()); err != nil {
		return nil, fmt.Errorf("store session: %w", err)
	}
	return &Session{ID: id, CSRF: csrf, Email: l.Email, CreatedAt: now}, nil
}

// sessionEnd is when a session created at created and last seen at seen ends.
func sessionEnd(created, seen time.Time) time.Time {
	end := created.Add(SessionMaxAge)
	if idle := seen.Add(SessionIdle); idle.Before(end) {
		end = idle
	}
	return end
}

// Resume finds the session of a cookie value and its person, and keeps it
// alive. ErrNoSession: there is none; ErrSessionEnded: it has ended (too
// old, idle, or the password was changed since).
func (s *Service) Resume(ctx context.Context, id string) (*Person, *Session, error) {
	if len(id) != sessionIDLen {
		return nil, nil, ErrNoSession
	}
	it, err := storage.Get[sessionItem](ctx, s.table, sessionKey(id))
	if err != nil {
		return nil, nil, fmt.Errorf("read session: %w", err)
	}
	if it == nil {
		return nil, nil, ErrNoSession
	}
	now := s.clock.Now()
	created, seen := time.UnixMilli(it.CreatedAt), time.UnixMilli(it.SeenAt)
	if !now.Before(sessionEnd(created, seen)) {
		return nil, nil, ErrSessionEnded
	}
	l, err := s.login(ctx, it.Email)
	if err != nil {
		return nil, nil, err
	}
	if l == nil || l.PasswordSet != it.PasswordSet {
		return nil, nil, ErrSessionEnded
	}
	if now.Sub(seen) >= seenEvery {
		upd := expression.Set(expression.Name("seenAt"), expression.Value(now.UnixMilli())).
			Set(expression.Name(storage.AttrExpiresAt), expression.Value(sessionEnd(created, now).Unix()))
		if err := s.table.Update(ctx, sessionKey(id), upd, storage.ItemExists()); err != nil {
			if storage.IsConditionFailed(err) {
				return nil, nil, ErrSessionEnded // signed out meanwhile
			}
			return nil, nil, fmt.Errorf("keep session alive: %w", err)
		}
	}
	p, err := s.person(ctx, l)
	if err != nil {
		return nil, nil, err
	}
	return p, &Session{ID: id, CSRF: it.CSRF, Email: it.Email, CreatedAt: created}, nil
}

// CheckCSRF reports whether token is the session's CSRF token.
func (sess *Session) CheckCSRF(token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(sess.CSRF)) == 1
}

// End deletes the session.
func (s *Service) End(ctx context.Context, id string) error {
	if len(id) != sessionIDLen {
		return nil
	}
	return s.table.Delete(ctx, sessionKey(id), nil)
}

// Reveal is a new value to be shown once: a token's, or (Kind
// RevealSigningSecret) a webhook endpoint's signing secret, TokenID then
// naming the endpoint.
type Reveal struct {
	AccountID string
	TokenID   string
	Kind      string
	Value     string
}

// RevealSigningSecret is the Kind of a webhook endpoint's signing secret;
// a token's is "".
const RevealSigningSecret = "webhook-secret"

// sealer is the AES-GCM of a session, keyed by its id: what is stored with
// the session cannot be read without the browser's cookie.
func sealer(sessionID string) (cipher.AEAD, error) {
	key := sha256.Sum256([]byte("bizplatform portal reveal\x00" + sessionID))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Stash keeps a new token's value with the session, encrypted, until
// TakeReveal shows it. A stash replaces an earlier one not yet shown.
func (s *Service) Stash(ctx context.Context, sess *Session, r Reveal) error {
	aead, err := sealer(sess.ID)
	if err != nil {
		return err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return err
	}
	sealed := aead.Seal(nonce, nonce, []byte(r.Value), []byte(r.Kind+"/"+r.AccountID+"/"+r.TokenID))
	item := revealItem{AccountID: r.AccountID, TokenID: r.TokenID, Kind: r.Kind, Sealed: base64.StdEncoding.EncodeToString(sealed)}
	av, err := attributevalue.Marshal(item)
	if err != nil {
		return err
	}
	return s.table.Update(ctx, sessionKey(sess.ID), expression.Set(expression.Name("reveal"), expression.Value(av)), storage.ItemExists())
}

// TakeReveal removes the session's stashed value of kind (a token's: "")
// of accountID and returns it: the value is there for one request only. It
// returns nil, and leaves the value in place, when there is none of that
// kind for that account.
func (s *Service) TakeReveal(ctx context.Context, sess *Session, accountID, kind string) (*Reveal, error) {
	reveal := expression.Name("reveal")
	cond := expression.AttributeExists(reveal).And(expression.Name("reveal.accountId").Equal(expression.Value(accountID)))
	if kind == "" {
		cond = cond.And(expression.AttributeNotExists(expression.Name("reveal.kind")))
	} else {
		cond = cond.And(expression.Name("reveal.kind").Equal(expression.Value(kind)))
	}
	old, err := storage.UpdateReturningOld[sessionItem](ctx, s.table, sessionKey(sess.ID), expression.Remove(reveal), &cond)
	if storage.IsConditionFailed(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("take the stashed value: %w", err)
	}
	if old.Reveal == nil {
		return nil, errors.New("the stashed value is missing")
	}
	aead, err := sealer(sess.ID)
	if err != nil {
		return nil, err
	}
	sealed, err := base64.StdEncoding.DecodeString(old.Reveal.Sealed)
	if err != nil || len(sealed) < aead.NonceSize() {
		return nil, errors.New("the stashed value is damaged")
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(old.Reveal.Kind+"/"+old.Reveal.AccountID+"/"+old.Reveal.TokenID))
	if err != nil {
		return nil, errors.New("the stashed value does not open with this session")
	}
	return &Reveal{AccountID: old.Reveal.AccountID, TokenID: old.Reveal.TokenID, Kind: old.Reveal.Kind, Value: string(plain)}, nil
}
