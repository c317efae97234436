package products

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Product is a product of an account's catalogue. Its prices are separate
// items (see Price), so an inventory update touches only the prices.
type Product struct {
	ID          string `dynamodbav:"id" json:"_id"`
	LocationID  string `dynamodbav:"locationId" json:"locationId"`
	Name        string `dynamodbav:"name" json:"name"`
	Description string `dynamodbav:"description,omitempty" json:"description,omitempty"`
	// ProductType is the public API's PHYSICAL, DIGITAL or SERVICE.
	ProductType      string `dynamodbav:"productType" json:"productType"`
	AvailableInStore bool   `dynamodbav:"availableInStore" json:"availableInStore"`
	CreatedAt        string `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt        string `dynamodbav:"updatedAt" json:"updatedAt"`
}

// Price is one price of a product, the unit whose inventory is tracked.
type Price struct {
	ID         string  `dynamodbav:"id" json:"_id"`
	ProductID  string  `dynamodbav:"product" json:"product"`
	LocationID string  `dynamodbav:"locationId" json:"locationId"`
	Name       string  `dynamodbav:"name" json:"name"`
	Type       string  `dynamodbav:"type" json:"type"` // one_time or recurring
	Currency   string  `dynamodbav:"currency" json:"currency"`
	Amount     float64 `dynamodbav:"amount" json:"amount"`
	// TrackInventory says whether the shop counts stock for this price.
	TrackInventory bool `dynamodbav:"trackInventory" json:"trackInventory"`
	// AvailableQuantity is nil until a quantity was ever set.
	AvailableQuantity        *int64 `dynamodbav:"availableQuantity,omitempty" json:"availableQuantity,omitempty"`
	AllowOutOfStockPurchases bool   `dynamodbav:"allowOutOfStockPurchases" json:"allowOutOfStockPurchases"`
	CreatedAt                string `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt                string `dynamodbav:"updatedAt" json:"updatedAt"`
}

// Catalog reads and writes products and prices. Both are stored by their
// own id in the account's partition, so an inventory update finds each price
// with a key lookup that cannot leave the caller's account.
type Catalog struct {
	table    *storage.Table
	products *storage.AccountItems[Product]
	prices   *storage.AccountItems[Price]
}

// NewCatalog returns the catalog on table.
func NewCatalog(table *storage.Table) *Catalog {
	return &Catalog{
		table:    table,
		products: storage.NewAccountItems(table, "PRODUCT#", func(p Product) (string, string) { return p.LocationID, p.ID }),
		prices:   storage.NewAccountItems(table, "PRICE#", func(p Price) (string, string) { return p.LocationID, p.ID }),
	}
}

// GetPrice returns the account's price, or nil when it has none with that id.
func (s *Catalog) GetPrice(ctx context.Context, accountID, priceID string) (*Price, error) {
	return s.prices.Get(ctx, accountID, priceID)
}

// pricesByID reads the account's prices with the given ids (consistent
// reads, one BatchGetItem per 100) and returns those that exist, by id.
// Missing ids are simply absent.
func (s *Catalog) pricesByID(ctx context.Context, accountID string, priceIDs []string) (map[string]Price, error) {
	keys := make([]storage.Key, len(priceIDs))
	for i, id := range priceIDs {
		keys[i] = s.prices.Key(accountID, id)
	}
	prices, err := storage.BatchGet[Price](ctx, s.table, keys)
	if err != nil {
		return nil, err
	}
	found := make(map[string]Price, len(prices))
	for _, p := range prices {
		found[p.ID] = p
	}
	return found, nil
}

// InventoryUpdated is the event of an inventory update: the values each
// price of the request was given (absent ones stayed as they were).
var InventoryUpdated = events.Type{
	Name: "InventoryUpdate", Scope: "products/prices.write", Version: 1,
	Summary: "The inventory of one or more prices was updated (POST /products/inventory), in one change.",
	Fields:  InventoryChange{},
}

// InventoryChange is an InventoryUpdate event's fields.
type InventoryChange struct {
	Items     []InventoryItemChange `json:"items"`
	UpdatedAt string                `json:"updatedAt"`
}

// InventoryItemChange is what one price was given.
type InventoryItemChange struct {
	PriceID                  string `json:"priceId"`
	ProductID                string `json:"productId"`
	AvailableQuantity        *int64 `json:"availableQuantity,omitempty"`
	AllowOutOfStockPurchases *bool  `json:"allowOutOfStockPurchases,omitempty"`
}

// inventoryChange is the new inventory of one price; nil fields stay as
// they are.
type inventoryChange struct {
	priceID                  string
	availableQuantity        *int64
	allowOutOfStockPurchases *bool
}

// priceGoneError is setInventory's answer when a price of the request was
// deleted after the request was checked.
type priceGoneError struct{ item parsedItem }

func (e *priceGoneError) Error() string { return "price " + e.item.priceID + " no longer exists" }

// setInventory writes the inventory of every item's price in one
// transaction: all of them, or none when a price no longer exists (a
// *priceGoneError). Each price's fields and updatedAt change together. The
// condition keeps a price deleted meanwhile from coming back as a stub.
func (s *Catalog) setInventory(ctx context.Context, accountID string, items []parsedItem, current map[string]Price, at time.Time) error {
	now := clock.Timestamp(at)
	tx := s.table.Tx()
	change := InventoryChange{UpdatedAt: now, Items: make([]InventoryItemChange, len(items))}
	for i, it := range items {
		upd := expression.Set(expression.Name("updatedAt"), expression.Value(now))
		if q := it.availableQuantity; q != nil {
			upd = upd.Set(expression.Name("availableQuantity"), expression.Value(*q))
		}
		if allow := it.allowOutOfStockPurchases; allow != nil {
			upd = upd.Set(expression.Name("allowOutOfStockPurchases"), expression.Value(*allow))
		}
		tx = tx.Update(s.prices.Key(accountID, it.priceID), upd, storage.ItemExists()).Else(&priceGoneError{item: it})
		change.Items[i] = InventoryItemChange{
			PriceID: it.priceID, ProductID: current[it.priceID].ProductID,
			AvailableQuantity: it.availableQuantity, AllowOutOfStockPurchases: it.allowOutOfStockPurchases,
		}
	}
	InventoryUpdated.Add(tx, events.Owner{LocationID: accountID}, change, at)
	return tx.Commit(ctx)
}
