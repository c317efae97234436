package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
)

// seedFile writes a dataset file holding each list's records.
func seedFile(t *testing.T, lists map[string][]string) string {
	t.Helper()
	var members []string
	for name, records := range lists {
		members = append(members, `"`+name+`":[`+strings.Join(records, ",")+`]`)
	}
	return writeFile(t, "dataset.json", "{"+strings.Join(members, ",")+"}")
}

// A record of each part with only the fields a creation needs (ids, the
// account, what the contract requires), and what the seed must fill in.
var leanRecords = []struct {
	part, list, record string
	// id is the stored record's id attribute.
	id string
	// now are the attributes that must hold the time of the seed.
	now []string
	// want are other attributes (a.b for a's member b) and their values.
	want map[string]any
}{
	{"accounts", "accounts", `{"id":"acctLean","companyId":"coLean","name":"Lean"}`, "acctLean", []string{"createdAt"}, nil},
	{"contacts", "contacts", `{"id":"ctcLean","locationId":"acctLean"}`, "ctcLean",
		[]string{"dateAdded"}, map[string]any{"tags": []any{}, "followers": []any{}, "customFields": []any{}}},
	{"conversations", "messages", `{"id":"msgLean","locationId":"acctLean","contactId":"ctcLean","conversationId":"cnvLean",
		"type":2,"messageType":"TYPE_SMS","direction":"inbound","contentType":"text/plain"}`, "msgLean",
		[]string{"dateAdded"}, map[string]any{"attachments": []any{}}},
	{"medias", "files", `{"_id":"fldLean","altId":"acctLean","name":"Docs","type":"folder"}`, "fldLean",
		[]string{"createdAt", "updatedAt"}, map[string]any{"altType": "account"}},
	{"voice-ai", "agents", `{"id":"agtLean","locationId":"acctLean","name":"Lean",
		"actions":[{"id":"actLean","actionType":"SMS","name":"Text","actionParameters":{"triggerPrompt":"p","triggerMessage":"m","messageBody":"b"}}]}`, "agtLean",
		[]string{"dateAdded"}, nil},
	{"emails", "templates", `{"id":"tplLean","locationId":"acctLean","type":"html"}`, "tplLean",
		[]string{"dateAdded", "dateUpdated"}, map[string]any{"builderVersion": "2"}},
	{"custom-fields", "customFields", `{"id":"cfLean","locationId":"acctLean","name":"Pet name","objectKey":"contact","dataType":"TEXT",
		"parentId":"cfFolderLean","fieldKey":"contact.pet_name"}`, "cfLean",
		[]string{"dateAdded", "dateUpdated"}, map[string]any{"showInForms": false}},
	{"payments", "coupons", `{"_id":"cpnLean","altId":"acctLean","name":"Welcome","code":"HELLO","discountType":"percentage","discountValue":10}`, "cpnLean",
		[]string{"createdAt", "updatedAt", "startDate"}, map[string]any{"altType": "account", "status": "active", "productIds": []any{}}},
	{"payments", "providers", `{"_id":"wlpLean","altId":"acctLean","uniqueName":"lean-gateway","title":"Lean","provider":"nmi",
		"description":"Cards","imageUrl":"https://assets.example.com/lean.png"}`, "wlpLean",
		[]string{"createdAt", "updatedAt"}, map[string]any{"altType": "account", "route": "lean-gateway"}},
	{"products", "products", `{"_id":"a1aa00000000000000000001","locationId":"acctLean","name":"Kit",
		"prices":[{"_id":"a1aa00000000000000000002","name":"One"}]}`, "a1aa00000000000000000001",
		[]string{"createdAt", "updatedAt"}, nil},
	{"store", "shippingZones", `{"_id":"a1bb00000000000000000001","altId":"acctLean","name":"US","countries":[{"code":"US"}],
		"shippingRates":[{"_id":"a1bb00000000000000000002","name":"Standard","currency":"USD","amount":5}]}`, "a1bb00000000000000000002",
		[]string{"createdAt", "updatedAt"}, map[string]any{"altType": "account", "conditionType": "none", "shippingCarrierServices": []any{}}},
	{"surveys", "surveys", `{"id":"srvLean","locationId":"acctLean","name":"Feedback"}`, "srvLean", nil, map[string]any{"type": "survey"}},
	{"campaigns", "campaigns", `{"id":"cmpLean","locationId":"acctLean","name":"Spring"}`, "cmpLean", nil, map[string]any{"status": "draft"}},
	{"users", "users", `{"id":"usrLean","companyId":"coLean","email":"lean@example.org","roles":{"role":"user"}}`, "usrLean",
		nil, map[string]any{"roles.type": "account", "roles.locationIds": []any{}, "permissions.contactsEnabled": true, "scopes": []any{}}},
	{"ad-publishing", "searchAdsCampaigns", `{"id":"sacLean","locationId":"acctLean","type":"INTEGRATION","name":"Brand",
		"adGroups":[{"id":"grpLean","name":"Group"}]}`, "grpLean", nil, map[string]any{"status": "ENABLED"}},
	{"ad-publishing", "socialAdsIntegrations", `{"id":"socLean","locationId":"acctLean","adAccountId":"act_1"}`, "socLean",
		[]string{"connectedAt"}, nil},
	{"associations", "customObjects", `{"locationId":"acctLean","key":"custom_objects.pet","labels":{"singular":"Pet","plural":"Pets"},
		"records":[{"id":"petLean"}]}`, "petLean", []string{"createdAt"}, map[string]any{"properties": map[string]any{}}},
	{"associations", "associations", `{"locationId":"acctLean","id":"ascLean","key":"pet_owner","firstObjectLabel":"Pet",
		"firstObjectKey":"custom_objects.pet","secondObjectLabel":"Owner","secondObjectKey":"contact"}`, "ascLean",
		[]string{"createdAt"}, map[string]any{"associationType": "USER_DEFINED"}},
	{"associations", "relations", `{"locationId":"acctLean","id":"relLean","associationId":"ascLean","firstRecordId":"petLean","secondRecordId":"ctcLean"}`, "relLean",
		[]string{"createdAt"}, nil},
	{"brand-boards", "brandBoards", `{"_id":"bbdLean","locationId":"acctLean","name":"Brand"}`, "bbdLean",
		[]string{"createdAt", "updatedAt"}, map[string]any{"logos": []any{}, "colors": []any{}, "fonts": []any{}, "meta.sourceType": "blank"}},
}

func TestSeedFillsWhatADatasetFileLeavesOutAsACreationWould(t *testing.T) {
	c, api := setup(t)
	lists := map[string][]string{}
	for _, r := range leanRecords {
		lists[r.list] = append(lists[r.list], r.record)
	}
	before := time.Now().UTC().Truncate(time.Millisecond)
	code, out, errOut := c.run("seed", "--file", seedFile(t, lists))
	after := time.Now().UTC()
	require.Equal(t, exitOK, code, errOut)
	items := testenv.Items[map[string]any](t, api.Table)

	for _, r := range leanRecords {
		t.Run("a lean record of "+r.list+" ("+r.part+") is stored with its defaults", func(t *testing.T) {
			assert.Contains(t, out, r.part)
			item := itemWith(items, r.id, append(r.now, keys(r.want)...))
			require.NotNil(t, item, "an item of %s with %v", r.id, r.now)
			for _, name := range r.now {
				at, err := time.Parse(time.RFC3339, attr(item, name).(string))
				require.NoError(t, err, name)
				assert.False(t, at.Before(before) || at.After(after), "%s %s is the time of the seed (%s to %s)", name, at, before, after)
			}
			for name, want := range r.want {
				assert.Equal(t, want, attr(item, name), name)
			}
		})
	}
}

// itemWith is the item whose id attribute is id and that has every one of
// the attributes (a record may be stored as several items).
func itemWith(items []map[string]any, id string, attrs []string) map[string]any {
	for _, it := range items {
		if it["id"] != id {
			continue
		}
		found := true
		for _, a := range attrs {
			found = found && attr(it, a) != nil
		}
		if found {
			return it
		}
	}
	return nil
}

// attr is the item's attribute name, "a.b" naming a's member b.
func attr(item map[string]any, name string) any {
	var v any = item
	for part := range strings.SplitSeq(name, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[part]
	}
	return v
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestSeedRefusalsNameThePartTheRecordAndTheField(t *testing.T) {
	c, _ := setup(t)
	cases := []struct {
		name, list, records, want string
	}{
		{"an account without a name", "accounts", `{"id":"acctA","companyId":"coA"},{"id":"acctB","companyId":"coB"}`,
			"seed accounts: accounts[0] (id acctA): name is required"},
		{"a contact whose dateAdded is not a time", "contacts", `{"id":"ctc1","locationId":"acctA"},{"id":"ctc2","locationId":"acctA","dateAdded":"last week"}`,
			"seed contacts: contacts[1] (id ctc2): dateAdded must be an RFC 3339 time"},
		{"a contact's task without an id", "contacts", `{"id":"ctc1","locationId":"acctA","tasks":[{"title":"Call back"}]}`,
			"seed contacts: contacts[0] (id ctc1): tasks[0]: id is required"},
		{"a message of an unknown direction", "messages", `{"id":"msg1","locationId":"acctA","contactId":"c","conversationId":"v","type":2,
			"messageType":"TYPE_SMS","direction":"sideways","contentType":"text/plain"}`, "seed conversations: messages[0] (id msg1): direction must be one of"},
		{"a file without a url", "files", `{"_id":"fil1","altId":"acctA","name":"a.pdf","type":"file"}`,
			"seed medias: files[0] (id fil1): url of a file must be an https URL"},
		{"an agent's action without a name", "agents", `{"id":"agt1","locationId":"acctA","actions":[{"id":"act1","actionType":"SMS"}]}`,
			"seed voice-ai: agents[0] (id agt1): actions[0] (id act1): name must be 1 to"},
		{"a template of an unknown type", "templates", `{"id":"tpl1","locationId":"acctA","type":"poster"}`,
			"seed emails: templates[0] (id tpl1): type must be one of"},
		{"a custom field without its field key", "customFields", `{"id":"cf1","locationId":"acctA","name":"N","objectKey":"contact","dataType":"TEXT","parentId":"p"}`,
			`seed custom-fields: customFields[0] (id cf1): fieldKey "" must be contact.<field_name>`},
		{"a coupon without a code", "coupons", `{"_id":"cpn1","altId":"acctA","name":"N","discountType":"amount","discountValue":5}`,
			"seed payments: coupons[0] (id cpn1): code is required"},
		{"a product whose id is not a stored id", "products", `{"_id":"product-1","locationId":"acctA"}`,
			"seed products: products[0] (id product-1): _id must be a lower-case 24-character hexadecimal id"},
		{"a shipping rate without a currency", "shippingZones", `{"_id":"a1bb00000000000000000001","altId":"acctA","name":"US","countries":[{"code":"US"}],
			"shippingRates":[{"_id":"a1bb00000000000000000002","name":"Standard"}]}`,
			"seed store: shippingZones[0] (id a1bb00000000000000000001): shippingRates[0] (id a1bb00000000000000000002): currency"},
		{"a survey without a name", "surveys", `{"id":"srv1","locationId":"acctA"}`, "seed surveys: surveys[0] (id srv1): name is required"},
		{"a campaign of an unknown status", "campaigns", `{"id":"cmp1","locationId":"acctA","name":"N","status":"live"}`,
			"seed campaigns: campaigns[0] (id cmp1): status must be one of: draft, published"},
		{"a user without a role", "users", `{"id":"usr1","companyId":"coA","email":"a@example.org"}`,
			"seed users: users[0] (id usr1): roles.role must be one of"},
		{"a user with a misspelt permission", "users", `{"id":"usr1","companyId":"coA","email":"a@example.org","permissions":{"contactEnabled":true}}`,
			`seed users: users[0] (id usr1): unknown field "contactEnabled"`},
		{"an ad group's day given twice", "searchAdsCampaigns", `{"id":"sac1","locationId":"acctA","type":"INTEGRATION","name":"N",
			"adGroups":[{"id":"g1","name":"G","daily":[{"date":"2026-02-03"},{"date":"2026-02-03"}]}]}`,
			"seed ad-publishing: searchAdsCampaigns[0] (id sac1): adGroups[0] (id g1): daily[1].date 2026-02-03 is daily[0]'s too"},
		{"a relation under an association not in the file", "relations", `{"locationId":"acctA","id":"rel1","associationId":"asc9","firstRecordId":"a","secondRecordId":"b"}`,
			"seed associations: relations[0] (id rel1): associationId asc9 is not an association of acctA in the data"},
		{"a brand board id given twice", "brandBoards", `{"_id":"bbd1","locationId":"acctA","name":"A"},{"_id":"bbd1","locationId":"acctA","name":"B"}`,
			"seed brand-boards: brandBoards[1] (id bbd1): id is taken by brandBoards[0] in account acctA"},
		{"a field of the wrong JSON type", "contacts", `{"id":"ctc1","locationId":"acctA","tags":"vip"}`,
			"seed contacts: contacts[0] (id ctc1): tags must be a list, not string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run("seed", "--file", seedFile(t, map[string][]string{tc.list: {tc.records}}))
			assert.Equal(t, exitError, code)
			assert.Empty(t, out, "nothing was loaded")
			assert.Contains(t, errOut, "platformctl: "+tc.want)
		})
	}
}
