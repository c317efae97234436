// Package accounts stores accounts (the API's locationId) and the companies
// they belong to.
package accounts

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Account is one customer workspace.
type Account struct {
	storage.Key
	ID        string `dynamodbav:"id"`
	CompanyID string `dynamodbav:"companyId"`
	Name      string `dynamodbav:"name"`
	CreatedAt string `dynamodbav:"createdAt"`
}

// Company groups accounts and owns users.
type Company struct {
	storage.Key
	ID string `dynamodbav:"id"`
	// Name is optional (SetCompanyName): pages and webhooks show the id
	// without it.
	Name      string `dynamodbav:"name,omitempty"`
	CreatedAt string `dynamodbav:"createdAt"`
}

// AccountKey is where an account record lives.
func AccountKey(id string) storage.Key { return storage.Key{PK: storage.AccountPK(id), SK: "ACCOUNT"} }

// CompanyKey is where a company record lives.
func CompanyKey(id string) storage.Key { return storage.Key{PK: storage.CompanyPK(id), SK: "COMPANY"} }

// memberKey lists an account in its company's partition, so the company's
// accounts are one query away.
func memberKey(companyID, id string) storage.Key {
	return storage.Key{PK: storage.CompanyPK(companyID), SK: "ACCOUNT#" + id}
}

type memberItem struct {
	storage.Key
	ID   string `dynamodbav:"id"`
	Name string `dynamodbav:"name"`
}

// ErrExists is returned when creating an account whose id is taken.
var ErrExists = errors.New("account already exists")

// ErrNoCompany: the company has no account, so no record.
var ErrNoCompany = errors.New("no such company: it is recorded with its first account")

// Registry reads and writes accounts.
type Registry struct {
	table *storage.Table
	clock clock.Clock
}

// NewRegistry returns the registry on table.
func NewRegistry(table *storage.Table, c clock.Clock) *Registry {
	return &Registry{table: table, clock: c}
}

// Create records a new account of company, and the company when this is
// its first account, in one transaction: the company (kept as it is when it
// exists), the account, and the account's entry in the company's list. An id
// already taken is ErrExists, with nothing written.
func (s *Registry) Create(ctx context.Context, id, companyID, name string) (Account, error) {
	var v validate.Errors
	v.ID("id", id)
	v.ID("company", companyID)
	v.Check(name != "", "name is required")
	v.MaxLen("name", name, 200)
	v.Text("name", name)
	if err := v.Err(); err != nil {
		return Account{}, err
	}
	now := clock.Timestamp(s.clock.Now())
	acct := Account{Key: AccountKey(id), ID: id, CompanyID: companyID, Name: name, CreatedAt: now}
	// The company keeps the creation time of its first account.
	createdAt := expression.Name("createdAt")
	company := expression.Set(expression.Name("id"), expression.Value(companyID)).
		Set(createdAt, createdAt.IfNotExists(expression.Value(now)))
	err := s.table.Tx().
		Update(CompanyKey(companyID), company, nil).
		Put(acct, storage.ItemAbsent()).Else(ErrExists).
		Put(memberItem{Key: memberKey(companyID, id), ID: id, Name: name}, nil).
		Commit(ctx)
	if errors.Is(err, ErrExists) {
		return Account{}, ErrExists
	}
	if err != nil {
		return Account{}, fmt.Errorf("create account %s: %w", id, err)
	}
	return acct, nil
}

// MaxCompanyName bounds a company's name, in characters.
const MaxCompanyName = 200

// CheckCompanyName checks a company's id and a name for it.
func CheckCompanyName(companyID, name string) error {
	var v validate.Errors
	v.ID("company", companyID)
	v.Check(strings.TrimSpace(name) != "", "company name must not be empty")
	v.MaxLen("company name", name, MaxCompanyName)
	v.Text("company name", name)
	return v.Err()
}

// SetCompanyName names an existing company.
func (s *Registry) SetCompanyName(ctx context.Context, companyID, name string) error {
	if err := CheckCompanyName(companyID, name); err != nil {
		return err
	}
	err := s.table.Update(ctx, CompanyKey(companyID), expression.Set(expression.Name("name"), expression.Value(strings.TrimSpace(name))), storage.ItemExists())
	if storage.IsConditionFailed(err) {
		return ErrNoCompany
	}
	return err
}

// CompanyName is the company's name, or its id when it has none (or no
// record).
func (s *Registry) CompanyName(ctx context.Context, companyID string) (string, error) {
	c, err := storage.Get[Company](ctx, s.table, CompanyKey(companyID))
	if err != nil {
		return "", err
	}
	if c == nil || c.Name == "" {
		return companyID, nil
	}
	return c.Name, nil
}

// OfCompany returns the ids and names of the company's accounts, by id.
func (s *Registry) OfCompany(ctx context.Context, companyID string) ([]Account, error) {
	items, err := storage.QueryPartition[memberItem](ctx, s.table, storage.CompanyPK(companyID), "ACCOUNT#")
	if err != nil {
		return nil, err
	}
	out := make([]Account, len(items))
	for i, it := range items {
		out[i] = Account{ID: it.ID, CompanyID: companyID, Name: it.Name}
	}
	return out, nil
}

// Get returns the account, or nil when there is none.
func (s *Registry) Get(ctx context.Context, id string) (*Account, error) {
	return storage.Get[Account](ctx, s.table, AccountKey(id))
}
