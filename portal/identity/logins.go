package identity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// A login is one e-mail address's password and the user records it signs
// in as: LOGIN#<lower-cased address> / LOGIN.
func loginKey(lowerEmail string) storage.Key {
	return storage.Key{PK: "LOGIN#" + lowerEmail, SK: "LOGIN"}
}

type login struct {
	storage.Key
	Email        string   `dynamodbav:"email"`
	PasswordHash string   `dynamodbav:"passwordHash"`
	PasswordSet  int64    `dynamodbav:"passwordSetAt"` // epoch ms
	Members      []string `dynamodbav:"members,stringset"`
}

func (s *Service) login(ctx context.Context, lowerEmail string) (*login, error) {
	l, err := storage.Get[login](ctx, s.table, loginKey(lowerEmail))
	if err != nil {
		return nil, fmt.Errorf("read login: %w", err)
	}
	return l, nil
}

// setPassword stores a new password for the address and adds the user
// record it was set for.
func (s *Service) setPassword(ctx context.Context, email string, m Membership, password string) error {
	hash, err := HashPassword(password)
	if err != nil {
		return fmt.Errorf("hash password: %w", err)
	}
	upd := expression.Set(expression.Name("email"), expression.Value(strings.ToLower(email))).
		Set(expression.Name("passwordHash"), expression.Value(hash)).
		Set(expression.Name("passwordSetAt"), expression.Value(s.clock.Now().UnixMilli())).
		Add(expression.Name("members"), expression.Value(&types.AttributeValueMemberSS{Value: []string{m.String()}}))
	return s.table.Update(ctx, loginKey(strings.ToLower(email)), upd, nil)
}

// SignInError is a refused sign-in: its message is for the page.
type SignInError struct {
	Message string
	// Throttled is true when the refusal is a lock, a delay or the
	// client's limit (429) rather than wrong credentials (401).
	Throttled bool
	// RetryAfter is how long a throttled refusal lasts (Retry-After).
	RetryAfter time.Duration
}

func (e *SignInError) Error() string { return e.Message }

// SignIn checks an address and password and returns the person and a new
// session. An unknown address and a wrong password get the same answer and
// cost the same work (one password hash, the same reads and writes); so do
// held back known and unknown addresses.
func (s *Service) SignIn(ctx context.Context, email, password, clientAddr string) (*Person, *Session, error) {
	h, err := s.allowAttempt(ctx, clientAddr, "sign-in")
	if err != nil {
		return nil, nil, err
	}
	if h != nil {
		return nil, nil, h.refusal(s.clock.Now())
	}
	lower := strings.ToLower(strings.TrimSpace(email))
	if !validate.IsEmail(lower) || len(password) > 4*MaxPasswordLength {
		lower = "invalid@invalid.invalid" // still costs a lookup and a hash
	}
	if h, err = s.heldBack(ctx, lower, clientAddr); err != nil {
		return nil, nil, err
	}
	if h != nil {
		return nil, nil, h.refusal(s.clock.Now())
	}
	l, err := s.login(ctx, lower)
	if err != nil {
		return nil, nil, err
	}
	hash := dummyHash()
	if l != nil {
		hash = l.PasswordHash
	}
	match, err := s.verify(hash, password)
	if err != nil && !errors.Is(err, errBadHash) {
		return nil, nil, err
	}
	if l == nil || !match {
		if err := s.recordFailure(ctx, lower, clientAddr); err != nil {
			return nil, nil, err
		}
		return nil, nil, &SignInError{Message: ErrBadCredentials.Error()}
	}
	if err := s.clearFailures(ctx, lower, clientAddr); err != nil {
		return nil, nil, err
	}
	p, err := s.person(ctx, l)
	if err != nil {
		return nil, nil, err
	}
	sess, err := s.newSession(ctx, l)
	if err != nil {
		return nil, nil, err
	}
	return p, sess, nil
}
