package httpio

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Typical bodies: an inventory update (nested items decoded one by one with
// DecodeValue, as the products area does) and a brand board (nested arrays
// of objects decoded in one pass).
const (
	benchInventoryBody = `{"altId":"demoLocAlpha00000001","altType":"account","items":[{"priceId":"a10200000000000000000201","availableQuantity":35,"allowOutOfStockPurchases":false},{"priceId":"a10200000000000000000202","availableQuantity":12,"allowOutOfStockPurchases":true},{"priceId":"a10200000000000000000401","availableQuantity":800}]}`
	benchBoardBody     = `{"locationId":"demoLocAlpha00000001","name":"Summer campaign 2026","brandBoardId":"bbd0a1000000000000000001","type":"template","default":true,` +
		`"logos":[{"id":"logo_sun","url":"https://assets.example.com/brand/sun.png","label":"Sun logo","path":"/brand/sun.png"}],` +
		`"colors":[{"id":"color_sun","hexa":"#ffc300ff","rgba":"rgba(255, 195, 0, 1)","hex":"#ffc300","rgb":"rgb(255, 195, 0)","label":"Sunshine"}],` +
		`"fonts":[{"id":"font_title","font":"Montserrat","fallback":"sans-serif","label":"Title"}]}`
)

type benchInventory struct {
	AltID   *string            `json:"altId"`
	AltType *string            `json:"altType"`
	Items   *[]json.RawMessage `json:"items"`
}

type benchInventoryItem struct {
	PriceID                  *string  `json:"priceId"`
	AvailableQuantity        *float64 `json:"availableQuantity"`
	AllowOutOfStockPurchases *bool    `json:"allowOutOfStockPurchases"`
}

type benchBoard struct {
	LocationID   *string `json:"locationId"`
	Name         *string `json:"name"`
	BrandBoardID *string `json:"brandBoardId"`
	ParentID     *string `json:"parentId"`
	Type         *string `json:"type"`
	Default      *bool   `json:"default"`
	Logos        *[]struct {
		ID    *string `json:"id"`
		URL   *string `json:"url"`
		Label *string `json:"label"`
		Path  *string `json:"path"`
	} `json:"logos"`
	Colors *[]struct {
		ID    *string `json:"id"`
		Hexa  *string `json:"hexa"`
		Rgba  *string `json:"rgba"`
		Hex   *string `json:"hex"`
		Rgb   *string `json:"rgb"`
		Label *string `json:"label"`
	} `json:"colors"`
	Fonts *[]struct {
		ID       *string `json:"id"`
		Font     *string `json:"font"`
		Fallback *string `json:"fallback"`
		Label    *string `json:"label"`
	} `json:"fonts"`
}

// BenchmarkDecodeJSON measures reading a typical request body, every check
// included: go test -run '^$' -bench DecodeJSON -benchmem ./shared/httpio/
func BenchmarkDecodeJSON(b *testing.B) {
	b.Run("inventory update", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(benchInventoryBody))
			var req benchInventory
			if err := DecodeJSON(r, &req); err != nil {
				b.Fatal(err)
			}
			for i, raw := range *req.Items {
				var it benchInventoryItem
				if err := DecodeValue(raw, fmt.Sprintf("items[%d]", i), &it); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("brand board", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(benchBoardBody))
			var req benchBoard
			if err := DecodeJSON(r, &req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
