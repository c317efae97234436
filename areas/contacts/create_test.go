package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
)

func TestCreateContactStoresItFindableAtOnceWithItsEvent(t *testing.T) {
	env, token := newEnv(t)
	seedContacts(t, env, acctA, 5)
	log := &eventLog{env: env, account: acctA}
	log.take(t)

	got := createContact(t, env, token, acctA, map[string]any{
		"firstName": "Zelda", "lastName": "Quist", "email": "Zelda.Quist@Example.com", "phone": "+1 (555) 010-4242",
		"tags": []string{"VIP", " lead "}, "customFields": []map[string]any{{"id": "cfTier", "key": "contact.tier", "field_value": "gold"}},
		"dateOfBirth": "09/25/1990", "country": "DE", "dnd": true, "city": "Berlin",
		"dndSettings": map[string]any{"SMS": map[string]any{"status": "active", "code": "101"}},
	})

	t.Run("the answer is the contact, its fields as stored", func(t *testing.T) {
		assert.Regexp(t, regexp.MustCompile(`^[A-Za-z0-9]{20}$`), got.ID)
		assert.Equal(t, "Zelda Quist", got.Name, "the first and last names joined")
		assert.Equal(t, "zelda quist", got.FullNameLowerCase)
		assert.Equal(t, "zelda.quist@example.com", got.EmailLowerCase)
		assert.Equal(t, "+15550104242", got.Phone, "E.164: + and the digits")
		assert.Equal(t, []string{"vip", "lead"}, got.Tags, "trimmed and lower-cased")
		assert.Equal(t, "1990-09-25T00:00:00.000Z", got.DateOfBirth)
		assert.Equal(t, []contactstore.CustomValue{{ID: "cfTier", Value: "gold"}}, got.CustomFields)
		assert.Equal(t, "active", got.DNDSettings.SMS.Status)
		assert.Equal(t, got.DateAdded, got.DateUpdated)
	})
	t.Run("it is stored as answered", func(t *testing.T) {
		rec := stored(t, env, acctA, got.ID)
		require.NotNil(t, rec)
		assert.Equal(t, "Zelda Quist", rec.ContactName)
		assert.Equal(t, "1990-09-25", rec.DateOfBirth)
		assert.Equal(t, "Berlin", rec.City)
		assert.True(t, rec.DND)
	})
	t.Run("the list and its search find it at once, and count it", func(t *testing.T) {
		_, all := list(t, env, token, url.Values{"locationId": {acctA}})
		assert.Equal(t, 6, all.Count)
		_, found := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"quist"}})
		require.Equal(t, 1, found.Count)
		assert.Equal(t, got.ID, found.Contacts[0].ID)
	})
	t.Run("the advanced search finds it by its tag at once", func(t *testing.T) {
		hits, total := search(t, env, token, map[string]any{"filters": []any{map[string]any{"field": "tags", "operator": "eq", "value": "VIP"}}})
		assert.Equal(t, 1, total)
		assert.Equal(t, []string{got.ID}, idsOf(hits))
	})
	t.Run("one ContactCreate event shows it", func(t *testing.T) {
		evs := log.take(t)
		require.Equal(t, []string{"ContactCreate"}, typesOf(evs))
		assert.Equal(t, got.ID, evs[0].ID)
		assert.Equal(t, "Zelda Quist", evs[0].Name)
		assert.Equal(t, "1990-09-25T00:00:00.000Z", evs[0].DateOfBirth)
		assert.Equal(t, []string{}, evs[0].Attachments)
	})
}

func TestCreateContactRefusesAnotherContactsEmailOrPhoneUnlessTheAccountAllowsDuplicates(t *testing.T) {
	env, token := newEnv(t)
	store := contactstore.NewContacts(env.Table)
	first := createContact(t, env, token, acctA, map[string]any{"firstName": "Ann", "email": "ann@example.com", "phone": "+1 555 010 0001"})
	count := func() int {
		_, body := list(t, env, token, url.Values{"locationId": {acctA}})
		return body.Count
	}
	create := func(fields map[string]any) *testenv.Response {
		fields["locationId"] = acctA
		return env.Do(t, testenv.Request{Method: "POST", Path: "/contacts/", Token: token, Body: fields})
	}

	t.Run("the same e-mail in another case is refused naming the contact that has it", func(t *testing.T) {
		msg := create(map[string]any{"email": "ANN@example.com"}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "does not allow duplicated contacts")
		assert.Contains(t, msg, first.ID)
		assert.Contains(t, msg, "email")
	})
	t.Run("the same phone written another way is refused", func(t *testing.T) {
		msg := create(map[string]any{"phone": "+1-555-010-0001"}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "phone")
		assert.Contains(t, msg, first.ID)
	})
	t.Run("a refused create stores nothing", func(t *testing.T) {
		assert.Equal(t, 1, count())
	})
	t.Run("with phone alone identifying contacts, a shared e-mail is accepted and a shared phone is not", func(t *testing.T) {
		require.NoError(t, store.SetDuplicateSettings(context.Background(), acctA, contactstore.DuplicateSettings{MatchOn: []string{"phone"}}, env.Clock.Now()))
		resp := create(map[string]any{"email": "ann@example.com"})
		require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
		assert.Contains(t, create(map[string]any{"phone": "+15550100001"}).RequireError(t, http.StatusUnprocessableEntity), "phone")
	})
	t.Run("an account that allows duplicates takes both", func(t *testing.T) {
		require.NoError(t, store.SetDuplicateSettings(context.Background(), acctA, contactstore.DuplicateSettings{AllowDuplicates: true, MatchOn: []string{"email", "phone"}}, env.Clock.Now()))
		resp := create(map[string]any{"email": "ann@example.com", "phone": "+15550100001"})
		require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
		assert.Equal(t, 3, count(), "Ann, the one sharing her e-mail, and the one sharing both")
	})
}

func TestCreateContactWithAnIdempotencyKeyCreatesOnce(t *testing.T) {
	env, token := newEnv(t)
	req := testenv.Request{Method: "POST", Path: "/contacts/", Token: token,
		Headers: map[string]string{idempotency.HeaderKey: "create-once"},
		Body:    map[string]any{"locationId": acctA, "firstName": "Once", "email": "once@example.com"}}
	first := env.Do(t, req)
	require.Equal(t, http.StatusCreated, first.Status, "body: %s", first.Body)
	again := env.Do(t, req)
	require.Equal(t, http.StatusCreated, again.Status)
	assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, contactOf(t, first).ID, contactOf(t, again).ID, "the replay answers the first contact")
	_, body := list(t, env, token, url.Values{"locationId": {acctA}})
	assert.Equal(t, 1, body.Count, "one contact")
}

func TestContactWritesRefuseEveryBrokenRuleNamingItsField(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 1)
	tooMany := make([]string, 51)
	for i := range tooMany {
		tooMany[i] = fmt.Sprintf("t%d", i)
	}
	cases := []struct {
		name, method, path string
		body               map[string]any
		status             int
		names              string
	}{
		{"a create without locationId", "POST", "/contacts/", map[string]any{"firstName": "A"}, 422, "locationId is required"},
		{"a create naming another account", "POST", "/contacts/", map[string]any{"locationId": acctB}, 403, "does not have access"},
		{"an e-mail without @", "POST", "/contacts/", map[string]any{"locationId": acctA, "email": "ann.example.com"}, 422, "email must be an e-mail address"},
		{"a phone of three digits", "POST", "/contacts/", map[string]any{"locationId": acctA, "phone": "555"}, 422, "phone must be a phone number"},
		{"a phone with letters", "POST", "/contacts/", map[string]any{"locationId": acctA, "phone": "+1 555 CALL NOW"}, 422, "phone must be a phone number"},
		{"a website that is not http", "POST", "/contacts/", map[string]any{"locationId": acctA, "website": "ftp://example.com"}, 422, "website must be an absolute http"},
		{"a time zone with spaces", "POST", "/contacts/", map[string]any{"locationId": acctA, "timezone": "Central Europe"}, 422, "timezone must be an IANA"},
		{"a date of birth that does not exist", "POST", "/contacts/", map[string]any{"locationId": acctA, "dateOfBirth": "2023-02-30"}, 422, "dateOfBirth must be a date"},
		{"a date of birth before 1900", "POST", "/contacts/", map[string]any{"locationId": acctA, "dateOfBirth": "1890-01-01"}, 422, "dateOfBirth"},
		{"a country that is no code", "POST", "/contacts/", map[string]any{"locationId": acctA, "country": "XX"}, 422, "country must be a two-letter country code"},
		{"an empty tag", "POST", "/contacts/", map[string]any{"locationId": acctA, "tags": []string{"ok", " "}}, 422, "tags[1] must not be empty"},
		{"fifty-one tags", "POST", "/contacts/", map[string]any{"locationId": acctA, "tags": tooMany}, 422, "at most 50 tags"},
		{"a custom field value that is a list", "POST", "/contacts/", map[string]any{"locationId": acctA, "customFields": []any{map[string]any{"id": "cf1", "field_value": []string{"a"}}}}, 422, "customFields[0].field_value must be a string"},
		{"a custom field without id", "POST", "/contacts/", map[string]any{"locationId": acctA, "customFields": []any{map[string]any{"field_value": "x"}}}, 422, "customFields[0].id is required"},
		{"a do-not-disturb status that is none", "POST", "/contacts/", map[string]any{"locationId": acctA, "dndSettings": map[string]any{"SMS": map[string]any{"status": "maybe"}}}, 422, "dndSettings.SMS.status must be one of"},
		{"dnd sent as null", "POST", "/contacts/", map[string]any{"locationId": acctA, "dnd": nil}, 422, "dnd must not be null"},
		{"an unknown property", "POST", "/contacts/", map[string]any{"locationId": acctA, "nickname": "Al"}, 422, "nickname"},
		{"two broken rules, both named", "POST", "/contacts/", map[string]any{"locationId": acctA, "email": "x", "country": "XX"}, 422, "email must"},
		{"an update naming locationId, which it does not take", "PUT", "/contacts/" + ids[0], map[string]any{"locationId": acctA}, 422, "locationId"},
		{"an update clearing tags with null", "PUT", "/contacts/" + ids[0], map[string]any{"tags": nil}, 422, "tags must not be null"},
		{"an update of a malformed contact id", "PUT", "/contacts/bad%23id", map[string]any{"city": "X"}, 422, "contactId must be an id"},
		{"a tags change without tags", "POST", "/contacts/" + ids[0] + "/tags", map[string]any{}, 422, "tags is required"},
		{"a tags change of no tag", "DELETE", "/contacts/" + ids[0] + "/tags", map[string]any{"tags": []string{}}, 422, "tags must list at least one tag"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused naming it", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: tc.method, Path: tc.path, Token: token, Body: tc.body})
			assert.Contains(t, resp.RequireError(t, tc.status), tc.names)
		})
	}
	t.Run("nothing was written", func(t *testing.T) {
		_, body := list(t, env, token, url.Values{"locationId": {acctA}})
		assert.Equal(t, 1, body.Count)
		assert.Equal(t, "First0", stored(t, env, acctA, ids[0]).FirstName)
	})
}

func TestContactOperationsAuth(t *testing.T) {
	env, _ := newEnv(t)
	n := 0
	// fresh makes a contact a call can consume.
	fresh := func(t *testing.T) string {
		n++
		id := fmt.Sprintf("auth%04d", n)
		env.Seed(t, contacts.Area, fmt.Sprintf(`{"contacts":[{"id":%q,"locationId":%q,"email":"auth%d@example.com","dateAdded":%q,"tags":["keep"]}]}`, id, acctA, n, epoch))
		return id
	}
	body := func(fields string) string { return `{"locationId":"` + acctA + `"` + fields + `}` }
	for _, tc := range []struct {
		op      operations.Operation
		ok      int
		foreign int
		call    func(t *testing.T, token string) testenv.Request
	}{
		{operations.CreateContact, 201, 403, func(t *testing.T, _ string) testenv.Request {
			n++
			return testenv.Request{Method: "POST", Path: "/contacts/", Body: body(fmt.Sprintf(`,"email":"new%d@example.com"`, n))}
		}},
		{operations.GetContact, 200, 404, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "GET", Path: "/contacts/" + fresh(t)}
		}},
		{operations.UpdateContact, 200, 404, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "PUT", Path: "/contacts/" + fresh(t), Body: `{"city":"Oslo"}`}
		}},
		{operations.DeleteContact, 200, 404, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "DELETE", Path: "/contacts/" + fresh(t)}
		}},
		{operations.UpsertContact, 200, 403, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "POST", Path: "/contacts/upsert", Body: body(`,"email":"upsert@example.com"`)}
		}},
		{operations.GetDuplicateContact, 200, 403, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "GET", Path: "/contacts/search/duplicate?locationId=" + acctA + "&email=x%40example.com"}
		}},
		{operations.SearchContactsAdvanced, 200, 403, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "POST", Path: "/contacts/search", Body: body(`,"query":"auth"`)}
		}},
		{operations.AddTags, 201, 404, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "POST", Path: "/contacts/" + fresh(t) + "/tags", Body: `{"tags":["new"]}`}
		}},
		{operations.RemoveTags, 200, 404, func(t *testing.T, _ string) testenv.Request {
			return testenv.Request{Method: "DELETE", Path: "/contacts/" + fresh(t) + "/tags", Body: `{"tags":["keep"]}`}
		}},
	} {
		t.Run(tc.op.ID(), func(t *testing.T) {
			env.CheckAuth(t, testenv.AuthCheck{
				Op: tc.op, Account: acctA, OK: tc.ok, ForeignStatus: tc.foreign,
				Call: func(t *testing.T, token string) *testenv.Response {
					req := tc.call(t, token)
					req.Token = token
					return env.Do(t, req)
				},
			})
		})
	}
}

// idsOf are the ids of records.
func idsOf(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// search sends POST /contacts/search for acctA with the fields given and
// answers the page and the total (the request must succeed).
func search(t *testing.T, env *testenv.Env, token string, fields map[string]any) ([]record, int) {
	t.Helper()
	body := map[string]any{"locationId": acctA}
	for k, v := range fields {
		body[k] = v
	}
	resp := env.Do(t, testenv.Request{Method: "POST", Path: "/contacts/search", Token: token, Body: body})
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	var got struct {
		Contacts []record `json:"contacts"`
		Total    int      `json:"total"`
	}
	resp.JSON(t, &got)
	return got.Contacts, got.Total
}
