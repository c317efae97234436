package products

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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

// Prices are stored by their own id in the account's partition, so an
// inventory update finds each one with a key lookup that cannot leave the
// caller's account.
func priceKey(accountID, priceID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "PRICE#" + priceID}
}

func productKey(accountID, productID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "PRODUCT#" + productID}
}

type priceItem struct {
	storage.Key
	Price
}

type productItem struct {
	storage.Key
	Product
}

// Catalog reads and writes products and prices.
type Catalog struct {
	table *storage.Table
}

// NewCatalog returns the catalog on table.
func NewCatalog(table *storage.Table) *Catalog { return &Catalog{table: table} }

// GetPrice returns the account's price, or nil when it has none with that id.
func (s *Catalog) GetPrice(ctx context.Context, accountID, priceID string) (*Price, error) {
	item, err := storage.Get[priceItem](ctx, s.table, priceKey(accountID, priceID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Price, nil
}

// GetProduct returns the account's product, or nil.
func (s *Catalog) GetProduct(ctx context.Context, accountID, productID string) (*Product, error) {
	item, err := storage.Get[productItem](ctx, s.table, productKey(accountID, productID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Product, nil
}

// maxBatchGet is DynamoDB's limit of keys per BatchGetItem call.
const maxBatchGet = 100

// batchGetAttempts bounds the retries of keys DynamoDB leaves unprocessed
// (under throttling) before the request is answered 503.
const batchGetAttempts = 6

// errUnprocessed is the cause of a 503 when DynamoDB keeps leaving keys
// unprocessed.
var errUnprocessed = errors.New("batch get: keys still unprocessed after retries")

// pricesByID reads the account's prices with the given ids (consistent
// reads) and returns those that exist, by id. Missing ids are simply absent.
func (s *Catalog) pricesByID(ctx context.Context, accountID string, priceIDs []string) (map[string]Price, error) {
	found := make(map[string]Price, len(priceIDs))
	for start := 0; start < len(priceIDs); start += maxBatchGet {
		keys := make([]map[string]types.AttributeValue, 0, maxBatchGet)
		for _, id := range priceIDs[start:min(start+maxBatchGet, len(priceIDs))] {
			keys = append(keys, priceKey(accountID, id).AV())
		}
		pending := map[string]types.KeysAndAttributes{s.table.Name: {Keys: keys, ConsistentRead: aws.Bool(true)}}
		for attempt := 0; len(pending[s.table.Name].Keys) > 0; attempt++ {
			if attempt == batchGetAttempts {
				return nil, errUnprocessed
			}
			if attempt > 0 {
				if err := pause(ctx, attempt); err != nil {
					return nil, err
				}
			}
			out, err := s.table.DB.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, err
			}
			var items []priceItem
			if err := attributevalue.UnmarshalListOfMaps(out.Responses[s.table.Name], &items); err != nil {
				return nil, fmt.Errorf("decode prices: %w", err)
			}
			for _, it := range items {
				found[it.ID] = it.Price
			}
			pending = out.UnprocessedKeys
		}
	}
	return found, nil
}

// pause waits before retry attempt n (exponential: 20ms, 40ms, 80ms...).
func pause(ctx context.Context, n int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(10<<n) * time.Millisecond):
		return nil
	}
}

// inventoryChange is the new inventory of one price; nil fields stay as
// they are.
type inventoryChange struct {
	priceID                  string
	availableQuantity        *int64
	allowOutOfStockPurchases *bool
}

// errPriceGone reports a price deleted between validation and its write.
var errPriceGone = errors.New("price no longer exists")

// setInventory writes one price's inventory in one UpdateItem: both fields
// and updatedAt change together or not at all. The values are absolute (SET,
// never ADD), so writing the same change again leaves the same item: a
// retried request completes whatever an interrupted one left undone. The
// condition keeps a price deleted meanwhile from coming back as a stub.
func (s *Catalog) setInventory(ctx context.Context, accountID string, c inventoryChange, now string) error {
	upd := expression.Set(expression.Name("updatedAt"), expression.Value(now))
	if c.availableQuantity != nil {
		upd = upd.Set(expression.Name("availableQuantity"), expression.Value(*c.availableQuantity))
	}
	if c.allowOutOfStockPurchases != nil {
		upd = upd.Set(expression.Name("allowOutOfStockPurchases"), expression.Value(*c.allowOutOfStockPurchases))
	}
	err := s.table.Update(ctx, priceKey(accountID, c.priceID), upd, storage.ItemExists())
	if storage.IsConditionFailed(err) {
		return errPriceGone
	}
	return err
}
