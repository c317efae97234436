package users

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// User is a user of a company, as the API shows it with projection "all".
type User struct {
	ID          string      `dynamodbav:"id" json:"id"`
	Name        string      `dynamodbav:"name,omitempty" json:"name"`
	FirstName   string      `dynamodbav:"firstName,omitempty" json:"firstName"`
	LastName    string      `dynamodbav:"lastName,omitempty" json:"lastName"`
	Email       string      `dynamodbav:"email" json:"email"`
	Phone       string      `dynamodbav:"phone,omitempty" json:"phone"`
	Extension   string      `dynamodbav:"extension,omitempty" json:"extension"`
	Permissions Permissions `dynamodbav:"permissions" json:"permissions"`
	Scopes      []string    `dynamodbav:"scopes" json:"scopes"`
	Roles       Roles       `dynamodbav:"roles" json:"roles"`
	Deleted     bool        `dynamodbav:"deleted" json:"deleted"`
	// LcPhone maps an account id to the user's inbound phone number there.
	LcPhone          map[string]string `dynamodbav:"lcPhone" json:"lcPhone"`
	PlatformLanguage string            `dynamodbav:"platformLanguage,omitempty" json:"platformLanguage"`
}

// Roles is the user's role: its type (account or agency), the role itself
// (admin or user), the accounts it covers and whether it is restricted to
// them. The public API names this single object "roles".
type Roles struct {
	Type               string   `dynamodbav:"type" json:"type"`
	Role               string   `dynamodbav:"role" json:"role"`
	LocationIDs        []string `dynamodbav:"locationIds" json:"locationIds"`
	RestrictSubAccount bool     `dynamodbav:"restrictSubAccount" json:"restrictSubAccount"`
}

// Role types and roles a user can hold.
var (
	RoleTypes = []string{"account", "agency"}
	RoleNames = []string{"admin", "user"}
)

// PlatformLanguages are the languages a user can choose.
var PlatformLanguages = []string{"en_US", "es", "fr_CA", "fr_FR", "nl", "de", "pt_PT", "pt_BR", "it", "sv", "da", "fi", "no"}

// normalize gives absent lists and maps their empty value, so every answer
// has the same shape.
func (u *User) normalize() {
	if u.Scopes == nil {
		u.Scopes = []string{}
	}
	if u.Roles.LocationIDs == nil {
		u.Roles.LocationIDs = []string{}
	}
	if u.LcPhone == nil {
		u.LcPhone = map[string]string{}
	}
}

// Users are company-owned: each is stored by id in its company's partition.
func userKey(companyID, id string) storage.Key {
	return storage.Key{PK: storage.CompanyPK(companyID), SK: "USER#" + id}
}

// emailIndexPK is the GSI1 partition of the company's users with one e-mail
// address (lower-cased), so a search reads only the users it asks about. The
// company id comes first and is an id (no '#'), so no other company's users
// can ever share the partition.
func emailIndexPK(companyID, lowerEmail string) string {
	return "USEREMAIL#" + companyID + "#" + lowerEmail
}

// emailIndexSK orders the users sharing an address by id.
func emailIndexSK(id string) string { return "USER#" + id }

type userItem struct {
	storage.Key
	GSI1PK    string `dynamodbav:"GSI1PK"`
	GSI1SK    string `dynamodbav:"GSI1SK"`
	CompanyID string `dynamodbav:"companyId"`
	User
}

func newUserItem(companyID string, u User) userItem {
	return userItem{
		Key:       userKey(companyID, u.ID),
		GSI1PK:    emailIndexPK(companyID, strings.ToLower(u.Email)),
		GSI1SK:    emailIndexSK(u.ID),
		CompanyID: companyID,
		User:      u,
	}
}

// Directory reads and writes users.
type Directory struct {
	table *storage.Table
}

// NewDirectory returns the directory on table.
func NewDirectory(table *storage.Table) *Directory { return &Directory{table: table} }

// Get returns the company's user, or nil when it has none with that id.
func (s *Directory) Get(ctx context.Context, companyID, id string) (*User, error) {
	item, err := storage.Get[userItem](ctx, s.table, userKey(companyID, id))
	if err != nil || item == nil {
		return nil, err
	}
	item.normalize()
	return &item.User, nil
}

// UserCreated is the event of a created user (platformctl users create):
// the public platform's UserCreate, of the user's company.
var UserCreated = events.Type{
	Name: "UserCreate", Scope: "users.readonly", Version: 1, OfCompany: true,
	Summary: "A user was created in a company (platformctl users create). A company's event: it carries companyId, not locationId.",
	Fields:  UserEvent{},
}

// UserEvent is a UserCreate event's fields, the public platform's names.
type UserEvent struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	FirstName   string      `json:"firstName"`
	LastName    string      `json:"lastName"`
	Email       string      `json:"email"`
	Phone       string      `json:"phone"`
	Extension   string      `json:"extension"`
	Role        string      `json:"role"`
	RoleType    string      `json:"roleType"`
	Permissions Permissions `json:"permissions"`
	Locations   []string    `json:"locations"`
}

func userEvent(u User) UserEvent {
	return UserEvent{
		ID: u.ID, Name: u.Name, FirstName: u.FirstName, LastName: u.LastName, Email: u.Email,
		Phone: u.Phone, Extension: u.Extension, Role: u.Roles.Role, RoleType: u.Roles.Type,
		Permissions: u.Permissions, Locations: u.Roles.LocationIDs,
	}
}

// ErrEmailTaken is returned when creating a user whose e-mail address
// another user of the company (not deleted) has.
var ErrEmailTaken = errors.New("another user of the company has this e-mail address")

// A created user is two items in its company's partition, written in one
// transaction, each on condition that it is absent:
//   - the address claim (USEREMAILCLAIM#<lower-cased address>), naming the
//     user: it makes the address unique in the company, strongly (the
//     e-mail index is eventually consistent);
//   - the user item (USER#<id>).
//
// So a claim always has its user and a created user always has its claim:
// of concurrent creations with one address exactly one commits, and the
// others fail on the claim's condition.
func emailClaimKey(companyID, lowerEmail string) storage.Key {
	return storage.Key{PK: storage.CompanyPK(companyID), SK: "USEREMAILCLAIM#" + lowerEmail}
}

type emailClaim struct {
	storage.Key
	UserID string `dynamodbav:"userId"`
}

// Create stores a new user of the company under a new id and returns it;
// ErrEmailTaken when the address is in use in the company.
//
// Users a seed wrote have no claim: they are looked up through the e-mail
// index first. The index is eventually consistent, so this check finds a
// seeded user once the index has caught up with the seed (a fraction of a
// second), not one a seed is writing at the same moment; the claim, not the
// index, keeps the addresses of created users unique.
//
// The user's UserCreate event is written in the same transaction.
func (s *Directory) Create(ctx context.Context, companyID string, u User, at time.Time) (User, error) {
	u.ID = ids.Alnum20()
	if err := u.check(companyID); err != nil {
		return User{}, err
	}
	lower := strings.ToLower(u.Email)
	found, err := s.FindByEmails(ctx, companyID, []string{lower}, false)
	if err != nil {
		return User{}, fmt.Errorf("look the address up: %w", err)
	}
	if len(found) > 0 {
		return User{}, ErrEmailTaken
	}
	u.normalize()
	tx := s.table.Tx().
		Put(emailClaim{Key: emailClaimKey(companyID, lower), UserID: u.ID}, storage.ItemAbsent()).Else(ErrEmailTaken).
		Put(newUserItem(companyID, u), storage.ItemAbsent())
	err = UserCreated.Add(tx, events.Owner{CompanyID: companyID}, userEvent(u), at).Commit(ctx)
	if err != nil {
		return User{}, err
	}
	return u, nil
}

// emailLookups bounds the e-mail index queries one search runs at once.
const emailLookups = 8

// FindByEmails returns the company's users whose e-mail address is one of
// lowerEmails (lower-cased, distinct) and whose deleted flag is deleted,
// ordered by e-mail address and then id. It runs one index query per
// address, a few at a time. The index is eventually consistent: a user
// written a moment ago may not be found yet.
func (s *Directory) FindByEmails(ctx context.Context, companyID string, lowerEmails []string, deleted bool) ([]User, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	found := make([][]User, len(lowerEmails))
	errs := make([]error, len(lowerEmails))
	slots := make(chan struct{}, emailLookups)
	var wg sync.WaitGroup
	for i, email := range lowerEmails {
		wg.Go(func() {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			found[i], errs[i] = s.findByEmail(ctx, companyID, email, deleted)
			if errs[i] != nil {
				cancel() // the search fails anyway: stop the other lookups
			}
		})
	}
	wg.Wait()
	if err := firstCause(errs); err != nil {
		return nil, err
	}
	var all []User
	for _, us := range found {
		all = append(all, us...)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := strings.ToLower(all[i].Email), strings.ToLower(all[j].Email)
		if a != b {
			return a < b
		}
		return all[i].ID < all[j].ID
	})
	return all, nil
}

// firstCause returns the first error that is not the cancellation one
// failed lookup caused in the others, else the first error.
func firstCause(errs []error) error {
	var first error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if !errors.Is(err, context.Canceled) {
			return err
		}
		if first == nil {
			first = err
		}
	}
	return first
}

func (s *Directory) findByEmail(ctx context.Context, companyID, lowerEmail string, deleted bool) ([]User, error) {
	filter := expression.Name("deleted").Equal(expression.Value(deleted))
	items, err := storage.QueryAll[userItem](ctx, s.table, storage.Query{
		Index:  storage.IndexGSI1,
		Key:    expression.Key(storage.AttrGSI1PK).Equal(expression.Value(emailIndexPK(companyID, lowerEmail))),
		Filter: &filter,
	})
	if err != nil {
		return nil, err
	}
	var users []User
	for _, it := range items {
		// The index partition already names the company; checking the
		// item's own partition too keeps a mis-keyed item from ever
		// reaching another company.
		if it.PK != storage.CompanyPK(companyID) {
			continue
		}
		it.normalize()
		users = append(users, it.User)
	}
	return users, nil
}
