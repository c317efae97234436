// Package userdir gives the portal's identity service the users area's
// directory, read through the interface identity defines. It lives apart
// from both so that neither imports the other: the users function links no
// portal code, and identity no area.
package userdir

import (
	"context"

	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/storage"
)

// Directory is the users directory as identity reads it.
type Directory struct{ users *users.Directory }

var _ identity.Directory = Directory{}

// New returns the directory of the users stored in table.
func New(table *storage.Table) Directory { return Directory{users: users.NewDirectory(table)} }

// PortalUser returns the company's user (deleted or not); nil when the
// company has none.
func (d Directory) PortalUser(ctx context.Context, companyID, userID string) (*identity.User, error) {
	u, err := d.users.Get(ctx, companyID, userID)
	if err != nil || u == nil {
		return nil, err
	}
	pu := portalUser(*u)
	return &pu, nil
}

// PortalUsersByEmail returns the company's users that are not deleted and
// have the lower-cased address lowerEmail.
func (d Directory) PortalUsersByEmail(ctx context.Context, companyID, lowerEmail string) ([]identity.User, error) {
	found, err := d.users.FindByEmails(ctx, companyID, []string{lowerEmail}, false)
	if err != nil {
		return nil, err
	}
	out := make([]identity.User, len(found))
	for i, u := range found {
		out[i] = portalUser(u)
	}
	return out, nil
}

func portalUser(u users.User) identity.User {
	return identity.User{ID: u.ID, Name: u.Name, Email: u.Email, Deleted: u.Deleted,
		Role: u.Roles.Role, Type: u.Roles.Type, AccountIDs: u.Roles.LocationIDs}
}
