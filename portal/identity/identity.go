// Package identity is who may use the portal: the users of the users area
// who set a password through an invite link, their sign-ins (argon2id
// passwords, lockout, throttling), their sessions, and which accounts each
// one administers. It reads the users through Directory, which the users
// area implements.
package identity

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// Directory is what identity reads of the users area: a company's users,
// by id and by e-mail address. *users.Directory implements it.
type Directory interface {
	// PortalUser returns the company's user with that id (deleted or
	// not), nil when the company has none.
	PortalUser(ctx context.Context, companyID, userID string) (*User, error)
	// PortalUsersByEmail returns the company's users that are not deleted
	// and have the lower-cased address lowerEmail.
	PortalUsersByEmail(ctx context.Context, companyID, lowerEmail string) ([]User, error)
}

// User is what identity needs of a user of the users area.
type User struct {
	ID      string
	Name    string
	Email   string
	Deleted bool
	// Role is admin or user; Type is agency (the whole company) or
	// account (the accounts AccountIDs lists, the API's locationIds).
	Role, Type string
	AccountIDs []string
}

// Service holds the portal's identities on the table.
type Service struct {
	table    *storage.Table
	clock    clock.Clock
	users    Directory
	accounts *accounts.Registry
	// verify checks a password against a hash (VerifyPassword; a test
	// counts its calls).
	verify func(encoded, password string) (bool, error)
}

// New returns the service on table, reading users from users.
func New(table *storage.Table, c clock.Clock, users Directory) *Service {
	return &Service{table: table, clock: c, users: users, accounts: accounts.NewRegistry(table, c), verify: VerifyPassword}
}

// Errors of the service, each with a message fit for the page.
var (
	ErrBadCredentials = errors.New("The email or password is incorrect.")
	ErrNoSuchUser     = errors.New("the company has no user with this e-mail address (deleted users included)")
	ErrAmbiguousUser  = errors.New("several users of the company have this e-mail address")
)

// Membership is one user record a login signs in as: a person may be a user
// of several companies under one e-mail address.
type Membership struct {
	CompanyID string
	UserID    string
}

func (m Membership) String() string { return m.CompanyID + "/" + m.UserID }

func parseMembership(s string) (Membership, bool) {
	c, u, ok := strings.Cut(s, "/")
	return Membership{CompanyID: c, UserID: u}, ok && c != "" && u != ""
}

// Person is a signed-in login and the user records it signs in as, read
// fresh on every request so that a role change or a deletion takes effect
// at once.
type Person struct {
	Email string
	// Users are the login's user records that still exist, are not
	// deleted and still carry the login's address.
	Users []UserOf
}

// UserOf is a user and its company.
type UserOf struct {
	CompanyID string
	User
}

// Name is how pages and the audit list name the person.
func (p *Person) Name() string {
	for _, u := range p.Users {
		if u.Name != "" {
			return u.Name
		}
	}
	return p.Email
}

// ActorID is the person's id in the audit list: their first user record.
func (p *Person) ActorID() string {
	if len(p.Users) == 0 {
		return p.Email
	}
	return p.Users[0].ID
}

// person reads the login's user records.
func (s *Service) person(ctx context.Context, l *login) (*Person, error) {
	p := &Person{Email: l.Email}
	members := slices.Clone(l.Members)
	slices.Sort(members)
	for _, raw := range members {
		m, ok := parseMembership(raw)
		if !ok {
			continue
		}
		u, err := s.users.PortalUser(ctx, m.CompanyID, m.UserID)
		if err != nil {
			return nil, fmt.Errorf("read user %s: %w", m, err)
		}
		if u == nil || u.Deleted || !strings.EqualFold(u.Email, l.Email) {
			continue
		}
		p.Users = append(p.Users, UserOf{CompanyID: m.CompanyID, User: *u})
	}
	return p, nil
}

// administers reports whether u administers acct: an agency admin of its
// company, or an admin whose accounts (locationIds) include it.
func administers(u UserOf, acct *accounts.Account) bool {
	if acct == nil || u.CompanyID != acct.CompanyID || u.Role != "admin" {
		return false
	}
	return u.Type == "agency" || slices.Contains(u.AccountIDs, acct.ID)
}

// Administers returns the account when the person administers it, and nil
// when they do not or it does not exist (the two look alike).
func (s *Service) Administers(ctx context.Context, p *Person, accountID string) (*accounts.Account, error) {
	if len(p.Users) == 0 {
		return nil, nil
	}
	acct, err := s.accounts.Get(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("read account: %w", err)
	}
	for _, u := range p.Users {
		if administers(u, acct) {
			return acct, nil
		}
	}
	return nil, nil
}

// Administered returns the accounts the person administers, by name.
func (s *Service) Administered(ctx context.Context, p *Person) ([]accounts.Account, error) {
	seen := map[string]bool{}
	var out []accounts.Account
	add := func(u UserOf, acct *accounts.Account) {
		if acct != nil && !seen[acct.ID] && administers(u, acct) {
			seen[acct.ID] = true
			out = append(out, *acct)
		}
	}
	for _, u := range p.Users {
		if u.Role != "admin" {
			continue
		}
		if u.Type == "agency" {
			all, err := s.accounts.OfCompany(ctx, u.CompanyID)
			if err != nil {
				return nil, fmt.Errorf("list the company's accounts: %w", err)
			}
			for i := range all {
				add(u, &all[i])
			}
		}
		for _, id := range u.AccountIDs {
			if seen[id] {
				continue
			}
			acct, err := s.accounts.Get(ctx, id)
			if err != nil {
				return nil, fmt.Errorf("read account %s: %w", id, err)
			}
			add(u, acct)
		}
	}
	slices.SortFunc(out, func(a, b accounts.Account) int { return strings.Compare(a.Name+a.ID, b.Name+b.ID) })
	return out, nil
}
