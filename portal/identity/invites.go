package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// InviteLifetime is how long an invite link works (once).
const InviteLifetime = 24 * time.Hour

// An invite is stored under the SHA-256 of its code, which only the link
// holds: PINVITE#<hash> / INVITE, expiring by TTL.
func inviteKey(code string) storage.Key {
	sum := sha256.Sum256([]byte(code))
	return storage.Key{PK: "PINVITE#" + hex.EncodeToString(sum[:]), SK: "INVITE"}
}

type inviteItem struct {
	storage.Key
	CompanyID string `dynamodbav:"companyId"`
	UserID    string `dynamodbav:"userId"`
	Email     string `dynamodbav:"email"`
	EndsAt    int64  `dynamodbav:"endsAt"` // epoch ms
	UsedAt    int64  `dynamodbav:"usedAt,omitempty"`
	ExpiresAt int64  `dynamodbav:"expiresAt"` // TTL, epoch s
}

// Invite is a pending invitation to set a password.
type Invite struct {
	Email     string
	CompanyID string
	UserID    string
}

// Errors of invites, with messages fit for the page.
var (
	ErrInviteUnknown = errors.New("This invite link is not valid. Ask your administrator for a new one.")
	ErrInviteUsed    = errors.New("This invite link has already been used. Sign in, or ask your administrator for a new link.")
	ErrInviteExpired = fmt.Errorf("This invite link has expired (links work for %s). Ask your administrator for a new one.", clock.Span(InviteLifetime))
)

// CreateInvite makes a one-time code with which the company's user with
// that address sets a password, valid InviteLifetime.
func (s *Service) CreateInvite(ctx context.Context, companyID, email string) (string, error) {
	if msg := validate.IDProblem("company", companyID); msg != "" {
		return "", errors.New(msg)
	}
	lower := strings.ToLower(strings.TrimSpace(email))
	if !validate.IsEmail(lower) {
		return "", fmt.Errorf("%q is not an e-mail address", email)
	}
	found, err := s.users.PortalUsersByEmail(ctx, companyID, lower)
	if err != nil {
		return "", fmt.Errorf("look the user up: %w", err)
	}
	switch {
	case len(found) == 0:
		return "", ErrNoSuchUser
	case len(found) > 1:
		return "", ErrAmbiguousUser
	}
	code, err := randomToken()
	if err != nil {
		return "", err
	}
	now := s.clock.Now()
	end := now.Add(InviteLifetime)
	it := inviteItem{Key: inviteKey(code), CompanyID: companyID, UserID: found[0].ID, Email: lower,
		EndsAt: end.UnixMilli(), ExpiresAt: end.Add(InviteLifetime).Unix()}
	if err := s.table.Put(ctx, it, storage.ItemAbsent()); err != nil {
		return "", fmt.Errorf("store invite: %w", err)
	}
	return code, nil
}

// PeekInvite returns the invite of a code that can still be used.
func (s *Service) PeekInvite(ctx context.Context, code string) (*Invite, error) {
	if len(code) != sessionIDLen {
		return nil, ErrInviteUnknown
	}
	it, err := storage.Get[inviteItem](ctx, s.table, inviteKey(code))
	if err != nil {
		return nil, fmt.Errorf("read invite: %w", err)
	}
	switch {
	case it == nil:
		return nil, ErrInviteUnknown
	case it.UsedAt != 0:
		return nil, ErrInviteUsed
	case !s.clock.Now().Before(time.UnixMilli(it.EndsAt)):
		return nil, ErrInviteExpired
	}
	return &Invite{Email: it.Email, CompanyID: it.CompanyID, UserID: it.UserID}, nil
}

// PasswordError is a new password that breaks a rule; its message is for
// the page.
type PasswordError struct{ Message string }

func (e *PasswordError) Error() string { return e.Message }

// RedeemInvite sets the password of the invite's address and uses the
// invite up; the code never works again. clientAddr is throttled like a
// sign-in.
func (s *Service) RedeemInvite(ctx context.Context, code, password, confirm, clientAddr string) (*Invite, error) {
	h, err := s.allowAttempt(ctx, clientAddr, "password-setting")
	if err != nil {
		return nil, err
	}
	if h != nil {
		return nil, h.refusal(s.clock.Now())
	}
	inv, err := s.PeekInvite(ctx, code)
	if err != nil {
		return nil, err
	}
	if msg := passwordProblem(password, confirm, inv.Email); msg != "" {
		return nil, &PasswordError{Message: msg}
	}
	u, err := s.users.PortalUser(ctx, inv.CompanyID, inv.UserID)
	if err != nil {
		return nil, fmt.Errorf("read user: %w", err)
	}
	if u == nil || u.Deleted || !strings.EqualFold(u.Email, inv.Email) {
		return nil, ErrInviteUnknown
	}
	now := s.clock.Now()
	used := expression.Name("usedAt")
	cond := expression.AttributeExists(expression.Name(storage.AttrPK)).
		And(expression.AttributeNotExists(used)).
		And(expression.Name("endsAt").GreaterThan(expression.Value(now.UnixMilli())))
	if err := s.table.Update(ctx, inviteKey(code), expression.Set(used, expression.Value(now.UnixMilli())), &cond); err != nil {
		if storage.IsConditionFailed(err) {
			return nil, ErrInviteUsed // used a moment ago by another request
		}
		return nil, fmt.Errorf("use invite: %w", err)
	}
	if err := s.setPassword(ctx, inv.Email, Membership{CompanyID: inv.CompanyID, UserID: inv.UserID}, password); err != nil {
		return nil, fmt.Errorf("set password: %w", err)
	}
	return inv, nil
}

// SetPasswordDirectly sets the password of a company user's address
// without an invite: for the local demo sign-in only (see cmd/devserver).
func (s *Service) SetPasswordDirectly(ctx context.Context, companyID, userID, password string) (string, error) {
	u, err := s.users.PortalUser(ctx, companyID, userID)
	if err != nil {
		return "", fmt.Errorf("read user: %w", err)
	}
	if u == nil || u.Deleted {
		return "", ErrNoSuchUser
	}
	return u.Email, s.setPassword(ctx, u.Email, Membership{CompanyID: companyID, UserID: userID}, password)
}
