package products

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Limits of an inventory update.
const (
	// MaxInventoryItems bounds one request: the spec sets no size, and 100
	// prices are checked in one BatchGetItem (DynamoDB's limit per call) and
	// written well within the function's time limit.
	MaxInventoryItems = 100
	// MaxAvailableQuantity keeps quantities exact integers whatever the
	// client's JSON number type (far below 2^53).
	MaxAvailableQuantity = 1_000_000_000
	// writeConcurrency is how many prices are written at the same time.
	writeConcurrency = 8
)

type inventoryRequest struct {
	AltID   *string `json:"altId"`
	AltType *string `json:"altType"`
	// Items are decoded one by one so that every error names its index.
	Items *[]json.RawMessage `json:"items"`

	parsed []parsedItem // the well-formed items, once checked
}

// check checks every rule of the request and returns the account it names.
func (req *inventoryRequest) check(v *validate.Errors) *string {
	req.parsed = parseInventory(*req, v)
	return req.AltID
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

// updateInventory sets the inventory of several prices.
//
// dynalite (like DynamoDB without transactions) cannot write many items
// atomically, so the request is made safe to retry instead:
//  1. Everything is validated before anything is written: the shape of every
//     item (a problem answers 422 naming every bad item), then the existence
//     of every price in the caller's account (one consistent BatchGetItem; a
//     missing one answers 422 naming every missing item). Nothing has been
//     written then.
//  2. Each price is then written with one UpdateItem that SETs absolute
//     values (never ADDs), so a price is never half-updated, and writing it
//     again gives the same item.
//  3. If the function fails part-way (timeout, throttling: 5xx), some prices
//     hold the new values and the rest the old ones; the client retries the
//     same request, which validates again and writes the same absolute
//     values, completing the job. Prices that already hold the requested
//     values are not rewritten, so a repeat leaves even updatedAt alone.
func (h *handler) updateInventory(w http.ResponseWriter, r *http.Request) error {
	req, p, err := request.Body(r, (*inventoryRequest).check)
	if err != nil {
		return err
	}
	items, ctx := req.parsed, r.Context()

	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.priceID
	}
	current, err := h.store.pricesByID(ctx, p.AccountID, ids)
	if err != nil {
		return err
	}
	var v validate.Errors
	var writes []parsedItem
	for _, it := range items {
		price, ok := current[it.priceID]
		if !ok {
			v.Add(notInAccount(it))
			continue
		}
		if changes(price, it.inventoryChange) {
			writes = append(writes, it)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}

	gone, err := h.write(ctx, p.AccountID, writes, clock.Timestamp(h.clock.Now()))
	if err != nil {
		return err
	}
	if len(gone) > 0 {
		// Prices deleted between the check and the write: the others are
		// written; the answer names the missing ones.
		slices.SortFunc(gone, func(a, b parsedItem) int { return a.index - b.index })
		for _, it := range gone {
			v.Add(notInAccount(it))
		}
		return v.Err()
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

// write applies the changes, a few at a time. It returns the items whose
// price vanished meanwhile, or the first storage error (the other writes
// stop; see updateInventory for why a retry then completes the job).
func (h *handler) write(ctx context.Context, accountID string, items []parsedItem, now string) ([]parsedItem, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		gone     []parsedItem
		firstErr error
		wg       sync.WaitGroup
		slots    = make(chan struct{}, writeConcurrency)
	)
	for _, it := range items {
		slots <- struct{}{}
		if ctx.Err() != nil { // a write failed: start no more
			<-slots
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			err := h.store.setInventory(ctx, accountID, it.inventoryChange, now)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
			case errors.Is(err, errPriceGone):
				gone = append(gone, it)
			case firstErr == nil:
				firstErr = err
				cancel()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return gone, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
