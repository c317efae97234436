package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

var zoneStates = []string{"CA", "OR", "WA", "NV", "AZ"}

func zoneCountries(v int) string {
	var states []string
	for _, s := range zoneStates[:v%len(zoneStates)+1] {
		states = append(states, fmt.Sprintf(`{"code":%q}`, s))
	}
	return `[{"code":"US","states":[` + strings.Join(states, ",") + `]}]`
}

var inventoryPrices = []string{"a10200000000000000000201", "a10200000000000000000202", "a10200000000000000000401"}

// field returns attribute name of the item at sk, as text ("<missing>" when
// the item is absent).
func field(items map[string]map[string]any, sk, name string) string {
	it, ok := items[sk]
	if !ok {
		return "<missing>"
	}
	v := it[name]
	if s, ok := v.(string); ok {
		return s
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

// overwrites are the records the load rewrites, each with versions whose
// every written field differs.
func overwrites() []*overwrite {
	return []*overwrite{
		{
			name: "shipping zone",
			request: func(v int) (string, string, string) {
				return "PUT", "/store/shipping-zone/a10300000000000000000002",
					fmt.Sprintf(`{"altId":%q,"altType":"account","name":"Zone v%d","countries":%s}`, alpha, v, zoneCountries(v))
			},
			read: func(items map[string]map[string]any) string {
				sk := "SHIPZONE#a10300000000000000000002"
				return field(items, sk, "name") + "|" + field(items, sk, "countries")
			},
			want: func(v int) string { return fmt.Sprintf("Zone v%d|%s", v, zoneCountries(v)) },
		},
		{
			name: "shipping rate",
			request: func(v int) (string, string, string) {
				return "PUT", "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000102",
					fmt.Sprintf(`{"altId":%q,"altType":"account","name":"Rate v%d","description":"Rate number %d","minCondition":%d,"maxCondition":null}`, alpha, v, v, v)
			},
			read: func(items map[string]map[string]any) string {
				sk := "SHIPZONE#a10300000000000000000001#RATE#a10400000000000000000102"
				return field(items, sk, "name") + "|" + field(items, sk, "description") + "|" + field(items, sk, "minCondition")
			},
			want: func(v int) string { return fmt.Sprintf("Rate v%d|Rate number %d|%d", v, v, v) },
		},
		{
			name: "voice AI action",
			request: func(v int) (string, string, string) {
				return "PUT", "/voice-ai/actions/demoActAlphaCallTransfer",
					fmt.Sprintf(`{"agentId":"demoAgtAlpha00000001","locationId":%q,"actionType":"CALL_TRANSFER","name":"Transfer v%d","actionParameters":{"triggerPrompt":"Prompt %d","transferToType":"number","transferToValue":"+1555%07d","triggerMessage":"Message %d","hearWhisperMessage":true}}`, alpha, v, v, v, v)
			},
			read: func(items map[string]map[string]any) string {
				sk := "VOICEACTION#demoAgtAlpha00000001#demoActAlphaCallTransfer"
				return field(items, sk, "name") + "|" + field(items, sk, "actionParameters")
			},
			want: func(v int) string {
				return fmt.Sprintf(`Transfer v%d|{"hearWhisperMessage":true,"transferToType":"number","transferToValue":"+1555%07d","triggerMessage":"Message %d","triggerPrompt":"Prompt %d"}`, v, v, v, v)
			},
		},
		{
			name: "inventory of three prices",
			request: func(v int) (string, string, string) {
				var items []string
				for k, id := range inventoryPrices {
					items = append(items, fmt.Sprintf(`{"priceId":%q,"availableQuantity":%d,"allowOutOfStockPurchases":%t}`, id, v*10+k, (v+k)%2 == 0))
				}
				return "POST", "/products/inventory", fmt.Sprintf(`{"altId":%q,"altType":"account","items":[%s]}`, alpha, strings.Join(items, ","))
			},
			read: func(items map[string]map[string]any) string {
				var out []string
				for _, id := range inventoryPrices {
					out = append(out, field(items, "PRICE#"+id, "availableQuantity")+"/"+field(items, "PRICE#"+id, "allowOutOfStockPurchases"))
				}
				return strings.Join(out, " ")
			},
			want: func(v int) string {
				var out []string
				for k := range inventoryPrices {
					out = append(out, fmt.Sprintf("%d/%t", v*10+k, (v+k)%2 == 0))
				}
				return strings.Join(out, " ")
			},
		},
		{
			name: "custom field",
			request: func(v int) (string, string, string) {
				return "PUT", "/custom-fields/demoFldPetBreedAlpha",
					fmt.Sprintf(`{"locationId":%q,"showInForms":true,"placeholder":"Placeholder v%d","options":[{"key":"labrador","label":"Labrador"},{"label":"Beagle"},{"label":"Poodle"},{"label":"Golden Retriever"}]}`, alpha, v)
			},
			read: func(items map[string]map[string]any) string {
				return field(items, "CUSTOMFIELD#demoFldPetBreedAlpha", "placeholder")
			},
			want: func(v int) string { return fmt.Sprintf("Placeholder v%d", v) },
		},
		{
			name: "media folder name",
			request: func(v int) (string, string, string) {
				return "POST", "/medias/demoFldAlpha00000005", fmt.Sprintf(`{"name":"Leaflets v%d","altType":"account","altId":%q}`, v, alpha)
			},
			read: func(items map[string]map[string]any) string {
				for sk := range items {
					if strings.HasPrefix(sk, "MEDIA#folder#") && strings.HasSuffix(sk, "#demoFldAlpha00000005") {
						return field(items, sk, "name")
					}
				}
				return "<missing>"
			},
			want: func(v int) string { return fmt.Sprintf("Leaflets v%d", v) },
		},
	}
}
