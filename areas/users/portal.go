package users

import (
	"context"

	"github.com/bizplatform/api/portal/identity"
)

// The portal's identity service reads the users through the directory.
var _ identity.Directory = (*Directory)(nil)

// PortalUser returns the company's user as the portal's identity service
// reads it (deleted or not); nil when the company has none.
func (s *Directory) PortalUser(ctx context.Context, companyID, userID string) (*identity.User, error) {
	u, err := s.Get(ctx, companyID, userID)
	if err != nil || u == nil {
		return nil, err
	}
	pu := u.portalUser()
	return &pu, nil
}

// PortalUsersByEmail returns the company's users that are not deleted and
// have the lower-cased address lowerEmail, as the portal's identity service
// reads them.
func (s *Directory) PortalUsersByEmail(ctx context.Context, companyID, lowerEmail string) ([]identity.User, error) {
	found, err := s.FindByEmails(ctx, companyID, []string{lowerEmail}, false)
	if err != nil {
		return nil, err
	}
	out := make([]identity.User, len(found))
	for i, u := range found {
		out[i] = u.portalUser()
	}
	return out, nil
}

func (u User) portalUser() identity.User {
	return identity.User{ID: u.ID, Name: u.Name, Email: u.Email, Deleted: u.Deleted,
		Role: u.Roles.Role, Type: u.Roles.Type, AccountIDs: u.Roles.LocationIDs}
}
