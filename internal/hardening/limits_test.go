package hardening

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
)

// wide is n characters of four bytes each: the most bytes a field bounded
// to n characters can hold.
func wide(n int) string { return strings.Repeat("😀", n) }

// ascii is n ASCII characters.
func ascii(n int) string { return strings.Repeat("a", n) }

// httpsURL is an https URL of exactly n characters (URLs are ASCII).
func httpsURL(n int) string {
	const prefix = "https://assets.example.com/"
	return prefix + ascii(n-len(prefix))
}

// TestTheLargestRequestsTheRulesAllowAreStored sends, for each operation
// that stores lists, a request with every list at its maximum length and
// every text at its maximum length in four-byte characters. Each must be
// stored (the rules keep every record below DynamoDB's 400 KB item limit)
// and read back whole through the API's answer, or be refused with a 4xx
// naming the bound; a 5xx means a rule lets through a record the database
// cannot hold.
func TestTheLargestRequestsTheRulesAllowAreStored(t *testing.T) {
	d := newDemoEnvOf(t, []string{"brand-boards", "contacts", "custom-fields", "store", "voice-ai"})
	token := d.private[demo.AccountAlpha]
	alpha := storage.AccountPK(demo.AccountAlpha)

	items := func(n int, item func(i int) map[string]any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = item(i)
		}
		return out
	}
	cases := []struct {
		name string
		req  testenv.Request
		ok   int
	}{
		{
			name: "a brand board with 50 logos, colors and fonts",
			req: testenv.Request{Method: "POST", Path: "/brand-boards/", Body: map[string]any{
				"locationId": demo.AccountAlpha, "name": wide(200),
				"logos": items(50, func(i int) map[string]any {
					return map[string]any{"id": fmt.Sprintf("logo_%d_%s", i, ascii(50)), "url": httpsURL(2048), "label": wide(100), "path": wide(512)}
				}),
				"colors": items(50, func(i int) map[string]any {
					return map[string]any{"id": fmt.Sprintf("color_%d_%s", i, ascii(50)), "hexa": "#ffc300ff", "rgba": "rgba(255, 195, 0, 1)", "hex": "#ffc300", "rgb": "rgb(255, 195, 0)", "label": wide(100)}
				}),
				"fonts": items(50, func(i int) map[string]any {
					return map[string]any{"id": fmt.Sprintf("font_%d_%s", i, ascii(50)), "font": wide(100), "fallback": wide(100), "label": wide(100)}
				}),
			}},
			ok: http.StatusCreated,
		},
		{
			name: "a radio custom field with 300 options",
			req: testenv.Request{Method: "PUT", Path: "/custom-fields/demoFldPetSizeAlpha", Body: map[string]any{
				"locationId": demo.AccountAlpha, "showInForms": true, "name": wide(255), "description": wide(2000), "placeholder": wide(255),
				"options": append([]any{
					map[string]any{"label": "Small"}, map[string]any{"label": "Medium"}, map[string]any{"label": "Large", "url": "https://example.com/pets/sizes#large"},
				}, items(297, func(i int) map[string]any {
					return map[string]any{"label": fmt.Sprintf("%03d", i) + wide(97), "url": "https://example.com/" + ascii(480)}
				})...),
			}},
			ok: http.StatusOK,
		},
		{
			name: "a carrier shipping rate with 50 services",
			req: testenv.Request{Method: "PUT", Path: "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000101", Body: map[string]any{
				"name": wide(200), "description": wide(1000), "isCarrierRate": true, "shippingCarrierId": "c10000000000000000000001", "percentageOfRateFee": 10,
				"shippingCarrierServices": items(50, func(i int) map[string]any {
					return map[string]any{"name": wide(200), "value": wide(200)}
				}),
			}},
			ok: http.StatusOK,
		},
		{
			name: "a custom voice action with 20 headers and 20 parameters",
			req: testenv.Request{Method: "PUT", Path: "/voice-ai/actions/demoActAlphaCallTransfer", Body: map[string]any{
				"agentId": "demoAgtAlpha00000001", "locationId": demo.AccountAlpha, "actionType": "CUSTOM_ACTION", "name": wide(100),
				"actionParameters": map[string]any{
					"triggerPrompt": wide(2000), "triggerMessage": wide(2000),
					"apiDetails": map[string]any{
						"url": "https://api.example.com/" + ascii(2000), "method": "GET",
						"authenticationRequired": true, "authenticationValue": wide(2048),
						"headers": items(20, func(i int) map[string]any {
							return map[string]any{"key": fmt.Sprintf("X-H%d-%s", i, ascii(90)), "value": wide(2048)}
						}),
						"parameters": items(20, func(i int) map[string]any {
							return map[string]any{"name": fmt.Sprintf("p%d", i) + wide(90), "description": wide(1000), "type": wide(50), "example": wide(200)}
						}),
					},
					"selectedPaths": items(20, func(i int) map[string]any { return nil }),
				},
			}},
			ok: http.StatusOK,
		},
		{
			// Every field's own bound at once would make a record of some
			// 80 KB, which each of its index items would repeat: the
			// record's own bound (16 KB) refuses it, naming it.
			name: "a contact with every text at its bound in four-byte characters, 50 tags and 25 custom fields",
			req:  testenv.Request{Method: "POST", Path: "/contacts/", Body: contactAtBounds(wide)},
			ok:   http.StatusUnprocessableEntity,
		},
		{
			name: "a contact with 50 tags and 25 custom fields in ASCII, just under the record's bound",
			req:  testenv.Request{Method: "POST", Path: "/contacts/", Body: contactAtBounds(func(n int) string { return ascii(n * 11 / 20) })},
			ok:   http.StatusCreated,
		},
	}
	// selectedPaths is a list of strings.
	paths := make([]any, 20)
	for i := range paths {
		paths[i] = fmt.Sprintf("%02d", i) + wide(198)
	}
	cases[3].req.Body.(map[string]any)["actionParameters"].(map[string]any)["selectedPaths"] = paths

	for _, tc := range cases {
		t.Run(tc.name+" is stored", func(t *testing.T) {
			raw, err := json.Marshal(tc.req.Body)
			require.NoError(t, err)
			t.Logf("request body: %d bytes", len(raw))
			tc.req.Token = token
			before := rawItems(t, d.Table, alpha)
			resp := d.Do(t, tc.req)
			require.Less(t, resp.Status, 500, "body: %s", clipBody(resp.Body))
			assert.Equal(t, tc.ok, resp.Status, "body: %s", clipBody(resp.Body))
			for key, item := range rawItems(t, d.Table, alpha) {
				if old, ok := before[key]; ok && storage.ItemSize(old) == storage.ItemSize(item) {
					continue
				}
				size := storage.ItemSize(item)
				t.Logf("stored %s: %d bytes", readable(key), size)
				assert.LessOrEqual(t, size, maxItemBytes, "%s is beyond DynamoDB's item limit", readable(key))
			}
		})
	}
}

// contactAtBounds is a new contact of Alpha with every text at text(its
// bound), 50 tags and 25 custom field values.
func contactAtBounds(text func(n int) string) map[string]any {
	tags := make([]any, 50)
	for i := range tags {
		tags[i] = fmt.Sprintf("%02d", i) + text(62)
	}
	fields := make([]any, 25)
	for i := range fields {
		fields[i] = map[string]any{"id": fmt.Sprintf("cf%02d", i) + ascii(60), "key": text(100), "field_value": text(500)}
	}
	channel := map[string]any{"status": "active", "message": text(200), "code": text(50)}
	return map[string]any{
		"locationId": demo.AccountAlpha, "firstName": text(100), "lastName": text(100), "name": text(200),
		"email": ascii(64) + "@" + ascii(180) + ".example", "phone": "+123456789012345", "gender": text(50),
		"address1": text(255), "city": text(100), "state": text(100), "postalCode": text(20), "website": httpsURL(2048),
		"timezone": "America/Argentina/ComodRivadavia", "dnd": true, "source": text(100), "companyName": text(200),
		"dndSettings":        map[string]any{"Call": channel, "Email": channel, "SMS": channel, "WhatsApp": channel, "GMB": channel, "FB": channel},
		"inboundDndSettings": map[string]any{"all": map[string]any{"status": "active", "message": text(200)}},
		"tags":               tags, "customFields": fields, "dateOfBirth": "1990-09-25", "country": "US", "assignedTo": ascii(64),
	}
}
