package users

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
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

// seed decodes and checks every user, filling in what the file leaves out
// (permission flags: DefaultPermissions; roles.type: account, as
// platformctl users create defaults it), before it writes any.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	users := make([]SeedUser, len(data.Users))
	for i, raw := range data.Users {
		u, err := decodeSeedUser(raw)
		if err != nil {
			return &app.RecordError{List: "users", Index: i, ID: u.ID, Err: err}
		}
		users[i] = u
	}
	err := app.CheckRecords("users", users, func(u *SeedUser) (string, string) { return u.CompanyID, u.ID }, func(u *SeedUser) error {
		if u.Roles.Type == "" {
			u.Roles.Type = "account"
		}
		if err := u.User.check(u.CompanyID); err != nil {
			return err
		}
		u.normalize()
		return nil
	})
	if err != nil {
		return err
	}
	items := make([]any, len(users))
	for i, u := range users {
		items[i] = newUserItem(u.CompanyID, u.User)
	}
	return d.Table.BatchPut(ctx, items)
}

// decodeSeedUser decodes one user over the default permissions, strictly
// (a misspelt flag is an error, not a silently ignored field).
func decodeSeedUser(raw json.RawMessage) (SeedUser, error) {
	u := SeedUser{User: User{Permissions: DefaultPermissions()}}
	return u, app.DecodeRecord(raw, &u)
}

// check tells what makes the user unfit to store in company companyID.
func (u *User) check(companyID string) error {
	var v validate.Errors
	v.ID("id", u.ID)
	v.ID("companyId", companyID)
	// The names the portal and its audit list show.
	v.Text("name", u.Name)
	v.Text("firstName", u.FirstName)
	v.Text("lastName", u.LastName)
	if err := v.Err(); err != nil {
		return err
	}
	if !validate.IsEmail(u.Email) {
		return fmt.Errorf("email %q is not an e-mail address", u.Email)
	}
	if !slices.Contains(RoleTypes, u.Roles.Type) {
		return fmt.Errorf("roles.type must be one of %v", RoleTypes)
	}
	if !slices.Contains(RoleNames, u.Roles.Role) {
		return fmt.Errorf("roles.role must be one of %v", RoleNames)
	}
	for _, loc := range u.Roles.LocationIDs {
		if msg := validate.IDProblem("roles.locationIds", loc); msg != "" {
			return errors.New(msg)
		}
	}
	if u.PlatformLanguage != "" && !slices.Contains(PlatformLanguages, u.PlatformLanguage) {
		return fmt.Errorf("platformLanguage %q is not one of %v", u.PlatformLanguage, PlatformLanguages)
	}
	return nil
}
