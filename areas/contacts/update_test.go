package contacts_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
)

func TestGetContactAnswersTheContactOfTheTokensAccountOnly(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 2)
	other := seedContacts(t, env, acctB, 1)

	t.Run("a contact of the account is answered whole", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/" + ids[1], Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		got := contactOf(t, resp)
		assert.Equal(t, ids[1], got.ID)
		assert.Equal(t, "First1", got.FirstName)
		assert.Equal(t, "first1", got.FirstNameLowerCase)
		assert.Equal(t, "person1@example.com", got.Email)
		assert.Equal(t, []string{}, got.Tags)
	})
	for name, id := range map[string]string{"another account's contact": other[0], "a missing contact": "noSuchContact"} {
		t.Run(name+" is answered 404, naming the id", func(t *testing.T) {
			msg := env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/" + id, Token: token}).RequireError(t, http.StatusNotFound)
			assert.Equal(t, "Contact "+id+" was not found", msg)
		})
	}
}

func TestUpdateContactChangesTheFieldsSentOnly(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 3)
	log := &eventLog{env: env, account: acctA}
	log.take(t)
	update := func(id string, body string) *testenv.Response {
		return env.Do(t, testenv.Request{Method: "PUT", Path: "/contacts/" + id, Token: token, Body: body})
	}

	t.Run("the fields sent change, the others stay, and the list shows it at once", func(t *testing.T) {
		resp := update(ids[0], `{"city":"Berlin","lastName":"Lindqvist","customFields":[{"id":"cfA","field_value":"1"}]}`)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		var got struct {
			Succeded bool   `json:"succeded"`
			Contact  record `json:"contact"`
		}
		resp.JSON(t, &got)
		assert.True(t, got.Succeded)
		assert.Equal(t, "Berlin", got.Contact.City)
		assert.Equal(t, "First0 Lindqvist", got.Contact.Name, "the full name follows the names")
		assert.Equal(t, "person0@example.com", got.Contact.Email, "kept")
		rec := stored(t, env, acctA, ids[0])
		assert.Equal(t, "Lindqvist", rec.LastName)
		assert.Equal(t, "Berlin", rec.City)
		_, found := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"lindqvist"}})
		assert.Equal(t, 1, found.Count)
		_, gone := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"last0"}})
		assert.Equal(t, 0, gone.Count, "the old name no longer finds it")
		assert.Equal(t, []string{"ContactUpdate"}, typesOf(log.take(t)))
	})
	t.Run("null clears a field, an empty value removes a custom field", func(t *testing.T) {
		resp := update(ids[0], `{"city":null,"customFields":[{"id":"cfA","field_value":""}]}`)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		rec := stored(t, env, acctA, ids[0])
		assert.Empty(t, rec.City)
		assert.Empty(t, rec.CustomFields)
		log.take(t)
	})
	t.Run("each kind of change has its event", func(t *testing.T) {
		require.Equal(t, http.StatusOK, update(ids[1], `{"tags":["a","b"]}`).Status)
		assert.Equal(t, []string{"ContactTagUpdate"}, typesOf(log.take(t)))
		require.Equal(t, http.StatusOK, update(ids[1], `{"dnd":true}`).Status)
		assert.Equal(t, []string{"ContactDndUpdate"}, typesOf(log.take(t)))
		require.Equal(t, http.StatusOK, update(ids[1], `{"source":"fair","tags":["c"],"inboundDndSettings":{"all":{"status":"active"}}}`).Status)
		assert.Equal(t, []string{"ContactDndUpdate", "ContactTagUpdate", "ContactUpdate"}, typesOf(log.take(t)))
	})
	t.Run("an update that changes nothing writes nothing and makes no event", func(t *testing.T) {
		before := stored(t, env, acctA, ids[1])
		resp := update(ids[1], `{"source":"fair","tags":["C"]}`)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.Empty(t, log.take(t))
		assert.Equal(t, before.DateUpdated, stored(t, env, acctA, ids[1]).DateUpdated)
	})
	t.Run("another contact's e-mail is refused and nothing changes", func(t *testing.T) {
		msg := update(ids[2], `{"email":"PERSON1@example.com","city":"Rome"}`).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, ids[1])
		assert.Empty(t, stored(t, env, acctA, ids[2]).City)
		assert.Empty(t, log.take(t))
	})
	t.Run("a contact's e-mail freed by an update may be taken by another", func(t *testing.T) {
		require.Equal(t, http.StatusOK, update(ids[1], `{"email":"moved@example.com"}`).Status)
		resp := update(ids[2], `{"email":"person1@example.com"}`)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	})
	t.Run("another account's contact is answered 404 and stays", func(t *testing.T) {
		other := seedContacts(t, env, acctB, 1)
		update(other[0], `{"city":"Oslo"}`).RequireError(t, http.StatusNotFound)
		assert.Empty(t, stored(t, env, acctB, other[0]).City)
	})
}

func TestDeleteContactTakesItsTasksAndNotesAndFreesItsValues(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 3)
	log := &eventLog{env: env, account: acctA}
	log.take(t)
	note := storage.Key{PK: storage.AccountPK(acctA), SK: "NOTE#" + ids[0] + "#N1"}
	require.NoError(t, env.Table.Put(context.Background(), note, nil))
	del := func(id string) *testenv.Response {
		return env.Do(t, testenv.Request{Method: "DELETE", Path: "/contacts/" + id, Token: token})
	}

	resp := del(ids[0])
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	assert.JSONEq(t, `{"succeded":true}`, string(resp.Body))

	t.Run("the contact, its task and its note are gone", func(t *testing.T) {
		assert.Nil(t, stored(t, env, acctA, ids[0]))
		for _, sk := range []string{"TASK#" + ids[0] + "#T0", note.SK} {
			item, err := storage.Get[storage.Key](context.Background(), env.Table, storage.Key{PK: note.PK, SK: sk})
			require.NoError(t, err)
			assert.Nil(t, item, "%s is gone", sk)
		}
	})
	t.Run("the list and the search no longer count it", func(t *testing.T) {
		_, all := list(t, env, token, url.Values{"locationId": {acctA}})
		assert.Equal(t, 2, all.Count)
		_, found := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"first0"}})
		assert.Equal(t, 0, found.Count)
	})
	t.Run("one ContactDelete event shows it as it was", func(t *testing.T) {
		evs := log.take(t)
		require.Equal(t, []string{"ContactDelete"}, typesOf(evs))
		assert.Equal(t, ids[0], evs[0].ID)
		assert.Equal(t, "person0@example.com", evs[0].Email)
	})
	t.Run("its e-mail may be another's now", func(t *testing.T) {
		createContact(t, env, token, acctA, map[string]any{"email": "person0@example.com"})
	})
	t.Run("a second delete is answered 404, with no event", func(t *testing.T) {
		del(ids[0]).RequireError(t, http.StatusNotFound)
		log.take(t)
		del(ids[0]).RequireError(t, http.StatusNotFound)
		assert.Empty(t, log.take(t))
	})
}
