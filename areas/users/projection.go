package users

import (
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/validate"
)

// userView is a user as one search answers it: id always, every other field
// only when the projection asks for it. Pointers tell "not asked for"
// (omitted) from an empty value (shown).
type userView struct {
	ID               string             `json:"id"`
	Name             *string            `json:"name,omitempty"`
	FirstName        *string            `json:"firstName,omitempty"`
	LastName         *string            `json:"lastName,omitempty"`
	Email            *string            `json:"email,omitempty"`
	Phone            *string            `json:"phone,omitempty"`
	Extension        *string            `json:"extension,omitempty"`
	Permissions      *Permissions       `json:"permissions,omitempty"`
	Scopes           *[]string          `json:"scopes,omitempty"`
	Roles            *Roles             `json:"roles,omitempty"`
	Deleted          *bool              `json:"deleted,omitempty"`
	LcPhone          *map[string]string `json:"lcPhone,omitempty"`
	PlatformLanguage *string            `json:"platformLanguage,omitempty"`
}

// projectable lists, in answer order, the fields a projection may name and
// how each is copied into the view. id is always answered.
var projectable = []struct {
	name string
	set  func(v *userView, u *User)
}{
	{"id", func(*userView, *User) {}},
	{"name", func(v *userView, u *User) { v.Name = &u.Name }},
	{"firstName", func(v *userView, u *User) { v.FirstName = &u.FirstName }},
	{"lastName", func(v *userView, u *User) { v.LastName = &u.LastName }},
	{"email", func(v *userView, u *User) { v.Email = &u.Email }},
	{"phone", func(v *userView, u *User) { v.Phone = &u.Phone }},
	{"extension", func(v *userView, u *User) { v.Extension = &u.Extension }},
	{"permissions", func(v *userView, u *User) { v.Permissions = &u.Permissions }},
	{"scopes", func(v *userView, u *User) { v.Scopes = &u.Scopes }},
	{"roles", func(v *userView, u *User) { v.Roles = &u.Roles }},
	{"deleted", func(v *userView, u *User) { v.Deleted = &u.Deleted }},
	{"lcPhone", func(v *userView, u *User) { v.LcPhone = &u.LcPhone }},
	{"platformLanguage", func(v *userView, u *User) { v.PlatformLanguage = &u.PlatformLanguage }},
}

// projection is the set of field names an answer carries.
type projection map[string]bool

// Projections by name: omitted, and "all".
var (
	defaultProjection = projection{"id": true, "email": true}
	allProjection     = func() projection {
		p := projection{}
		for _, f := range projectable {
			p[f.name] = true
		}
		return p
	}()
)

// projectAll is the value of projection that asks for the whole record.
const projectAll = "all"

func projectableNames() []string {
	names := make([]string, len(projectable))
	for i, f := range projectable {
		names[i] = f.name
	}
	return names
}

// parseProjection reads the projection parameter: absent gives id and
// email, "all" the whole record, and a comma-separated list of field names
// (spaces around names are ignored) those fields and id. Field names are
// case-sensitive, as in the answer.
func parseProjection(v *validate.Errors, raw *string) projection {
	if raw == nil {
		return defaultProjection
	}
	value := strings.TrimSpace(*raw)
	if value == projectAll {
		return allProjection
	}
	const shape = `projection must be "all" or a comma-separated list of field names (omit it for id and email)`
	if value == "" {
		v.Add(shape)
		return nil
	}
	p := projection{"id": true}
	var unknown []string
	for i, part := range strings.Split(value, ",") {
		name := strings.TrimSpace(part)
		switch {
		case name == "":
			v.Addf("%s; entry %d is empty", shape, i+1)
		case name == projectAll:
			v.Add(`projection "all" cannot be combined with field names`)
		case allProjection[name]:
			p[name] = true
		default:
			if name = clip(name); !slices.Contains(unknown, name) {
				unknown = append(unknown, name)
			}
		}
	}
	if len(unknown) > 0 {
		v.Addf("projection names unknown fields: %s (known fields: %s)", strings.Join(unknown, ", "), strings.Join(projectableNames(), ", "))
	}
	return p
}

// view copies the projected fields of u.
func (p projection) view(u *User) userView {
	v := userView{ID: u.ID}
	for _, f := range projectable {
		if p[f.name] {
			f.set(&v, u)
		}
	}
	return v
}
