package payments

import (
	"context"
	"regexp"

	"github.com/bizplatform/api/shared/storage"
)

// Gateways a white-label provider can be built on (the public API's values).
const (
	GatewayAuthorizeNet = "authorize-net"
	GatewayNMI          = "nmi"
)

var gateways = []string{GatewayAuthorizeNet, GatewayNMI}

// maxUniqueNameLen bounds uniqueName, which becomes part of a sort key.
const maxUniqueNameLen = 64

// uniqueNamePattern: lowercase letters and hyphens, starting and ending with
// a letter (a single letter is a valid name).
var uniqueNamePattern = regexp.MustCompile(`^[a-z](?:[a-z-]*[a-z])?$`)

// uniqueNameProblem returns why name is not a valid uniqueName, or "".
func uniqueNameProblem(name string) string {
	switch {
	case name == "":
		return "uniqueName is required"
	case len(name) > maxUniqueNameLen:
		return "uniqueName must be at most 64 characters long"
	case !uniqueNamePattern.MatchString(name):
		return "uniqueName must contain only lowercase letters and hyphens, and start and end with a letter"
	default:
		return ""
	}
}

// routeOf derives a provider's route from its uniqueName: the route is the
// uniqueName itself. A valid uniqueName is already a URL-safe slug
// (lowercase letters and hyphens, letter at both ends) and is unique within
// the account, so the route is too, and a client can predict it from the
// name it chose (uniqueName "easy-direct" has route "easy-direct").
func routeOf(uniqueName string) string { return uniqueName }

// Provider is a white-label payment integration provider as the API shows it.
type Provider struct {
	ID          string `dynamodbav:"id" json:"_id"`
	AltID       string `dynamodbav:"altId" json:"altId"`
	AltType     string `dynamodbav:"altType" json:"altType"`
	Title       string `dynamodbav:"title" json:"title"`
	Route       string `dynamodbav:"route" json:"route"`
	Provider    string `dynamodbav:"provider" json:"provider"`
	Description string `dynamodbav:"description" json:"description"`
	ImageURL    string `dynamodbav:"imageUrl" json:"imageUrl"`
	CreatedAt   string `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt   string `dynamodbav:"updatedAt" json:"updatedAt"`
}

// A provider is stored under its uniqueName rather than its _id: the key
// itself then enforces "one provider per uniqueName per account", and a
// create is one conditional PutItem (attribute_not_exists), so concurrent
// creates with the same name produce exactly one item and a failure leaves
// nothing half-written (dynalite has no transactions for a separate
// uniqueness item).
func providerKey(accountID, uniqueName string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: providerPrefix + uniqueName}
}

const providerPrefix = "WHITELABELPROVIDER#"

type providerItem struct {
	storage.Key
	UniqueName string `dynamodbav:"uniqueName"`
	Provider
}

func newProviderItem(uniqueName string, p Provider) providerItem {
	return providerItem{Key: providerKey(p.AltID, uniqueName), UniqueName: uniqueName, Provider: p}
}

// CreateProvider stores p under uniqueName in its account (p.AltID). It
// reports false, storing nothing, when the account already has a provider
// with that uniqueName.
func (s *Records) CreateProvider(ctx context.Context, uniqueName string, p Provider) (bool, error) {
	err := s.table.Put(ctx, newProviderItem(uniqueName, p), storage.ItemAbsent())
	if storage.IsConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

// GetProvider returns the account's provider with uniqueName, or nil.
func (s *Records) GetProvider(ctx context.Context, accountID, uniqueName string) (*Provider, error) {
	item, err := storage.Get[providerItem](ctx, s.table, providerKey(accountID, uniqueName))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Provider, nil
}

// ListProviders returns every white-label provider of the account, ordered
// by uniqueName.
func (s *Records) ListProviders(ctx context.Context, accountID string) ([]Provider, error) {
	items, err := storage.QueryPartition[providerItem](ctx, s.table, storage.AccountPK(accountID), providerPrefix)
	if err != nil {
		return nil, err
	}
	out := make([]Provider, len(items))
	for i, it := range items {
		out[i] = it.Provider
	}
	return out, nil
}
