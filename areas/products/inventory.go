package products

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Limits of an inventory update.
const (
	// MaxInventoryItems bounds one request: the spec sets no size, and the
	// prices are checked in one BatchGetItem and written in one transaction
	// with the update's event (DynamoDB's limit of 100 writes per call).
	MaxInventoryItems = storage.MaxTxItems - 1
	// MaxAvailableQuantity keeps quantities exact integers whatever the
	// client's JSON number type (far below 2^53).
	MaxAvailableQuantity = 1_000_000_000
)

type inventoryRequest struct {
	AltID   *string `json:"altId"`
	AltType *string `json:"altType"`
	// Items are decoded one by one so that every error names its index.
	Items *[]json.RawMessage `json:"items"`

	parsed []parsedItem // the well-formed items, once checked
}

// check records every rule the request breaks and keeps its well-formed
// items in req.parsed.
func (req *inventoryRequest) check(v *validate.Errors) {
	req.parsed = parseInventory(*req, v)
}

type inventoryItem struct {
	PriceID                  *string  `json:"priceId"`
	AvailableQuantity        *float64 `json:"availableQuantity"`
	AllowOutOfStockPurchases *bool    `json:"allowOutOfStockPurchases"`
}

// inventoryResponse is the public API's UpdateInventoryResponseDto.
type inventoryResponse struct {
	Status  bool   `json:"status"`
	Message string `json:"message"`
}

// parsedItem is a well-formed item and its position in the request.
type parsedItem struct {
	index int
	inventoryChange
}

// parseInventory checks everything that needs no storage. It returns the
// well-formed items; the violations of the others are in v.
func parseInventory(req inventoryRequest, v *validate.Errors) []parsedItem {
	v.Alt(req.AltID, req.AltType)
	if req.Items == nil {
		v.Add("items is required")
		return nil
	}
	items := *req.Items
	switch {
	case len(items) == 0:
		v.Add("items must contain at least one item")
		return nil
	case len(items) > MaxInventoryItems:
		v.Addf("items must contain at most %d items", MaxInventoryItems)
		return nil
	}
	var parsed []parsedItem
	firstIndex := map[string]int{} // price id -> first item naming it
	for i, raw := range items {
		field := fmt.Sprintf("items[%d]", i)
		var it inventoryItem
		if err := httpio.DecodeValue(raw, field, &it); err != nil {
			v.Merge(err)
			continue
		}
		ok := true
		if !v.Required(field+".priceId", it.PriceID) {
			ok = false
		} else if !validate.IsHexID(*it.PriceID) {
			v.Addf("%s.priceId must be a 24-character hexadecimal id", field)
			ok = false
		}
		var qty *int64
		if it.AvailableQuantity != nil {
			q := *it.AvailableQuantity
			if q < 0 || q > MaxAvailableQuantity || q != math.Trunc(q) {
				v.Addf("%s.availableQuantity must be an integer from 0 to %d", field, MaxAvailableQuantity)
				ok = false
			} else {
				n := int64(q)
				qty = &n
			}
		}
		if !ok {
			continue
		}
		// Hexadecimal ids are case-insensitive; stored ids are lower case.
		id := strings.ToLower(*it.PriceID)
		if first, dup := firstIndex[id]; dup {
			v.Addf("%s.priceId repeats items[%d].priceId: each price may appear once", field, first)
			continue
		}
		firstIndex[id] = i
		parsed = append(parsed, parsedItem{index: i, inventoryChange: inventoryChange{
			priceID: id, availableQuantity: qty, allowOutOfStockPurchases: it.AllowOutOfStockPurchases,
		}})
	}
	return parsed
}

// updateInventory sets the inventory of several prices, all of them or
// none:
//  1. Everything is validated before anything is written: the shape of every
//     item (a problem answers 422 naming every bad item), then the existence
//     of every price in the caller's account (one consistent BatchGetItem; a
//     missing one answers 422 naming every missing item).
//  2. When every price already holds the values asked, nothing is written:
//     a repeated request changes nothing, not even updatedAt.
//  3. Otherwise every price of the request is written, in one transaction
//     (setInventory), each on condition that it still exists: a price
//     deleted since the check cancels the whole request (422 naming it).
//     Prices that already hold their values are written too: left out on
//     the strength of the check, one could take a concurrent request's
//     values before the transaction applies and end mixed with this one's.
//     So concurrent requests naming the same prices apply one after the
//     other. The values are absolute (SET, never ADD): a request sent again
//     after a timeout writes the same values, or nothing when the first
//     attempt was applied.
func (h *handler) updateInventory(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body inventoryRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.AltID)
	if err != nil {
		return err
	}
	items, ctx := body.parsed, r.Context()

	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.priceID
	}
	current, err := h.store.pricesByID(ctx, p.AccountID, ids)
	if err != nil {
		return err
	}
	var v validate.Errors
	changed := false
	for _, it := range items {
		price, ok := current[it.priceID]
		if !ok {
			v.Add(notInAccount(it))
			continue
		}
		changed = changed || changes(price, it.inventoryChange)
	}
	if err := v.Err(); err != nil {
		return err
	}

	if changed {
		err := h.store.setInventory(ctx, p.AccountID, items, current, h.clock.Now())
		var gone *priceGoneError
		if errors.As(err, &gone) {
			v.Add(notInAccount(gone.item))
			return v.Err()
		}
		if err != nil {
			return err
		}
	}
	return httpio.WriteJSON(w, http.StatusCreated, inventoryResponse{
		Status:  true,
		Message: fmt.Sprintf("Inventory updated for %d %s", len(items), plural(len(items), "price", "prices")),
	})
}

func notInAccount(it parsedItem) string {
	return fmt.Sprintf("items[%d].priceId %s does not match any price of this account", it.index, it.priceID)
}

// changes reports whether applying c to price changes anything.
func changes(price Price, c inventoryChange) bool {
	if c.availableQuantity != nil && (price.AvailableQuantity == nil || *price.AvailableQuantity != *c.availableQuantity) {
		return true
	}
	return c.allowOutOfStockPurchases != nil && price.AllowOutOfStockPurchases != *c.allowOutOfStockPurchases
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
