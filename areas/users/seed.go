package users

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the users part of a demo dataset: users, each naming its
// company. Permission flags left out take their defaults
// (DefaultPermissions).
type SeedData struct {
	Users []json.RawMessage `json:"users"`
}

// SeedUser is a user and the company that owns it.
type SeedUser struct {
	CompanyID string `json:"companyId"`
	User
}

func seed(ctx context.Context, d app.Deps, data SeedData) error {
	items := make([]any, 0, len(data.Users))
	for i, rawUser := range data.Users {
		u, err := decodeSeedUser(rawUser)
		if err != nil {
			return fmt.Errorf("user %d: %w", i+1, err)
		}
		items = append(items, newUserItem(u.CompanyID, u.User))
	}
	return d.Table.BatchPut(ctx, items)
}

// decodeSeedUser decodes one user over the default permissions, strictly
// (a misspelt flag is an error, not a silently ignored field), and checks it.
func decodeSeedUser(raw json.RawMessage) (SeedUser, error) {
	u := SeedUser{User: User{Permissions: DefaultPermissions()}}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return u, err
	}
	if err := u.User.check(u.CompanyID); err != nil {
		return u, err
	}
	u.normalize()
	return u, nil
}

// check tells what makes the user unfit to store in company companyID.
func (u *User) check(companyID string) error {
	if msg := validate.IDProblem("id", u.ID) + validate.IDProblem("companyId", companyID); msg != "" {
		return fmt.Errorf("%s", msg)
	}
	if !validate.IsEmail(u.Email) {
		return fmt.Errorf("%s: email %q is not an e-mail address", u.ID, u.Email)
	}
	if !slices.Contains(RoleTypes, u.Roles.Type) || !slices.Contains(RoleNames, u.Roles.Role) {
		return fmt.Errorf("%s: roles.type must be one of %v and roles.role one of %v", u.ID, RoleTypes, RoleNames)
	}
	for _, loc := range u.Roles.LocationIDs {
		if msg := validate.IDProblem("roles.locationIds", loc); msg != "" {
			return fmt.Errorf("%s: %s", u.ID, msg)
		}
	}
	if u.PlatformLanguage != "" && !slices.Contains(PlatformLanguages, u.PlatformLanguage) {
		return fmt.Errorf("%s: platformLanguage %q is not one of %v", u.ID, u.PlatformLanguage, PlatformLanguages)
	}
	return nil
}
