package contacts_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
)

type upserted struct {
	New     bool   `json:"new"`
	Contact record `json:"contact"`
	TraceID string `json:"traceId"`
}

func upsert(t *testing.T, env *testenv.Env, token string, fields map[string]any) upserted {
	t.Helper()
	body := map[string]any{"locationId": acctA}
	for k, v := range fields {
		body[k] = v
	}
	resp := env.Do(t, testenv.Request{Method: "POST", Path: "/contacts/upsert", Token: token, Body: body})
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	var got upserted
	resp.JSON(t, &got)
	assert.Equal(t, resp.Header.Get("X-Request-Id"), got.TraceID)
	return got
}

func TestUpsertContactUpdatesTheContactItsEmailOrPhoneFindsOrCreatesOne(t *testing.T) {
	env, token := newEnv(t)
	store := contactstore.NewContacts(env.Table)
	ctx := context.Background()
	log := &eventLog{env: env, account: acctA}

	var ann upserted
	t.Run("an e-mail no contact has creates one", func(t *testing.T) {
		ann = upsert(t, env, token, map[string]any{"email": "ann@example.com", "firstName": "Ann"})
		assert.True(t, ann.New)
		assert.Equal(t, []string{"ContactCreate"}, typesOf(log.take(t)))
	})
	t.Run("the same e-mail in another case updates that contact", func(t *testing.T) {
		again := upsert(t, env, token, map[string]any{"email": "ANN@example.com", "city": "Oslo"})
		assert.False(t, again.New)
		assert.Equal(t, ann.Contact.ID, again.Contact.ID)
		assert.Equal(t, "Oslo", again.Contact.City)
		assert.Equal(t, "Ann", again.Contact.FirstName, "fields not sent are kept")
		assert.Equal(t, []string{"ContactUpdate"}, typesOf(log.take(t)))
	})
	t.Run("an upsert that changes nothing makes no event", func(t *testing.T) {
		assert.False(t, upsert(t, env, token, map[string]any{"email": "ANN@example.com", "city": "Oslo"}).New)
		assert.Empty(t, log.take(t))
	})

	bob := createContact(t, env, token, acctA, map[string]any{"firstName": "Bob", "phone": "+15550100002"})
	log.take(t)
	t.Run("an e-mail of one contact and a phone of another: the e-mail's is updated, the phone not moved onto it", func(t *testing.T) {
		got := upsert(t, env, token, map[string]any{"email": "ann@example.com", "phone": "+1 555 010 0002", "lastName": "Lee"})
		assert.False(t, got.New)
		assert.Equal(t, ann.Contact.ID, got.Contact.ID)
		assert.Equal(t, "Lee", got.Contact.LastName)
		assert.Empty(t, got.Contact.Phone, "the phone stays Bob's")
		assert.Equal(t, "+15550100002", stored(t, env, acctA, bob.ID).Phone)
	})
	t.Run("with phone first, the same request updates the phone's contact", func(t *testing.T) {
		require.NoError(t, store.SetDuplicateSettings(ctx, acctA, contactstore.DuplicateSettings{MatchOn: []string{"phone", "email"}}, env.Clock.Now()))
		got := upsert(t, env, token, map[string]any{"email": "ann@example.com", "phone": "+1 555 010 0002", "lastName": "Moss"})
		assert.Equal(t, bob.ID, got.Contact.ID)
		assert.Equal(t, "Moss", got.Contact.LastName)
		assert.Empty(t, got.Contact.Email, "the e-mail stays Ann's")
	})
	t.Run("when the account allows duplicates, createNewIfDuplicateAllowed creates without looking", func(t *testing.T) {
		require.NoError(t, store.SetDuplicateSettings(ctx, acctA, contactstore.DuplicateSettings{AllowDuplicates: true, MatchOn: []string{"email", "phone"}}, env.Clock.Now()))
		got := upsert(t, env, token, map[string]any{"email": "ann@example.com", "createNewIfDuplicateAllowed": true})
		assert.True(t, got.New)
		assert.NotEqual(t, ann.Contact.ID, got.Contact.ID)
		assert.False(t, upsert(t, env, token, map[string]any{"email": "ann@example.com"}).New, "without it, an upsert updates")
	})
	t.Run("createNewIfDuplicateAllowed is ignored when the account refuses duplicates", func(t *testing.T) {
		require.NoError(t, store.SetDuplicateSettings(ctx, acctA, contactstore.DefaultDuplicateSettings(), env.Clock.Now()))
		got := upsert(t, env, token, map[string]any{"phone": "+15550100002", "createNewIfDuplicateAllowed": true})
		assert.False(t, got.New)
		assert.Equal(t, bob.ID, got.Contact.ID)
	})
	t.Run("the list counts what the upserts made", func(t *testing.T) {
		_, all := list(t, env, token, url.Values{"locationId": {acctA}})
		assert.Equal(t, 3, all.Count, "Ann, Bob and Ann's duplicate")
	})
}

func TestGetDuplicateContactFindsTheContactOfAnEmailOrPhone(t *testing.T) {
	env, token := newEnv(t)
	ann := createContact(t, env, token, acctA, map[string]any{"firstName": "Ann", "email": "ann@example.com", "phone": "+15550100001"})
	tokenB, _ := env.Token(t, acctB)
	createContact(t, env, tokenB, acctB, map[string]any{"firstName": "Bea", "email": "bea@example.com"})
	find := func(query string) *testenv.Response {
		return env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/search/duplicate?locationId=" + acctA + "&" + query, Token: token})
	}
	found := func(query string) *record {
		resp := find(query)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		var got struct {
			Contact *record `json:"contact"`
		}
		resp.JSON(t, &got)
		return got.Contact
	}
	for name, query := range map[string]string{
		"its e-mail in another case":     "email=ANN%40example.com",
		"its phone written another way":  "number=%2B1%20555%20010%200001",
		"a phone first, then its e-mail": "number=%2B19999999999&email=ann%40example.com",
	} {
		t.Run(name+" finds the contact", func(t *testing.T) {
			got := found(query)
			require.NotNil(t, got)
			assert.Equal(t, ann.ID, got.ID)
		})
	}
	t.Run("a value no contact has finds none", func(t *testing.T) {
		assert.Nil(t, found("email=nobody%40example.com"))
	})
	t.Run("another account's contact is not found", func(t *testing.T) {
		assert.Nil(t, found("email=bea%40example.com"))
	})
	t.Run("neither e-mail nor number is a 400 naming both", func(t *testing.T) {
		msg := find("").RequireError(t, http.StatusBadRequest)
		assert.Contains(t, msg, "email or number is required")
	})
	t.Run("a malformed e-mail is a 400 naming it", func(t *testing.T) {
		assert.Contains(t, find("email=ann").RequireError(t, http.StatusBadRequest), "email must be an e-mail address")
	})
}

func TestAddAndRemoveTagsChangeWhatTheSearchFindsAtOnce(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 3)
	log := &eventLog{env: env, account: acctA}
	log.take(t)
	tags := func(method, id, body string) ([]string, *testenv.Response) {
		resp := env.Do(t, testenv.Request{Method: method, Path: "/contacts/" + id + "/tags", Token: token, Body: body})
		var got struct {
			Tags []string `json:"tags"`
		}
		if resp.Status < 300 {
			resp.JSON(t, &got)
		}
		return got.Tags, resp
	}
	tagged := func(tag string) []string {
		hits, total := search(t, env, token, map[string]any{"filters": []any{map[string]any{"field": "tags", "operator": "eq", "value": tag}}})
		assert.Equal(t, len(hits), total)
		return idsOf(hits)
	}

	t.Run("added tags are lower-cased, kept once, and found at once", func(t *testing.T) {
		got, resp := tags("POST", ids[0], `{"tags":["VIP","Lead","vip"]}`)
		require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
		assert.Equal(t, []string{"vip", "lead"}, got)
		assert.Equal(t, []string{ids[0]}, tagged("vip"))
		assert.Equal(t, []string{"ContactTagUpdate"}, typesOf(log.take(t)))
	})
	t.Run("adding tags the contact has writes nothing", func(t *testing.T) {
		got, resp := tags("POST", ids[0], `{"tags":["lead"]}`)
		require.Equal(t, http.StatusCreated, resp.Status)
		assert.Equal(t, []string{"vip", "lead"}, got)
		assert.Empty(t, log.take(t))
	})
	t.Run("removed tags are no longer found", func(t *testing.T) {
		got, resp := tags("DELETE", ids[0], `{"tags":["VIP","unknown"]}`)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.Equal(t, []string{"lead"}, got)
		assert.Empty(t, tagged("vip"))
		assert.Equal(t, []string{ids[0]}, tagged("lead"))
		assert.Equal(t, []string{"ContactTagUpdate"}, typesOf(log.take(t)))
	})
	t.Run("removing tags the contact has not writes nothing", func(t *testing.T) {
		_, resp := tags("DELETE", ids[0], `{"tags":["vip"]}`)
		require.Equal(t, http.StatusOK, resp.Status)
		assert.Empty(t, log.take(t))
	})
	t.Run("a missing contact is answered 404", func(t *testing.T) {
		_, resp := tags("POST", "noSuchContact", `{"tags":["x"]}`)
		resp.RequireError(t, http.StatusNotFound)
	})
}
