package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
)

// Races on one contact, over HTTP against DynamoDB Local; each passes
// -race -count=50 (docs/design.md, "Invariants that span items").

func TestConcurrentUpdatesOfOneContactLoseNoField(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 1)
	log := &eventLog{env: env, account: acctA}
	log.take(t)
	// Eight updates at once, each of another field.
	updates := []string{
		`{"city":"Berlin"}`, `{"state":"BE"}`, `{"postalCode":"10115"}`, `{"website":"https://example.com"}`,
		`{"source":"fair"}`, `{"address1":"Unter den Linden 1"}`, `{"timezone":"Europe/Berlin"}`, `{"customFields":[{"id":"cfRace","field_value":"x"}]}`,
	}
	statuses := make([]int, len(updates))
	var wg sync.WaitGroup
	for i, body := range updates {
		wg.Go(func() {
			statuses[i] = env.Do(t, testenv.Request{Method: "PUT", Path: "/contacts/" + ids[0], Token: token, Body: body}).Status
		})
	}
	wg.Wait()
	for i, s := range statuses {
		assert.Equal(t, http.StatusOK, s, "update %s", updates[i])
	}
	rec := stored(t, env, acctA, ids[0])
	require.NotNil(t, rec)
	assert.Equal(t, "Berlin", rec.City)
	assert.Equal(t, "BE", rec.State)
	assert.Equal(t, "10115", rec.PostalCode)
	assert.Equal(t, "https://example.com", rec.Website)
	assert.Equal(t, "fair", rec.Source)
	assert.Equal(t, "Unter den Linden 1", rec.Address1)
	assert.Equal(t, "Europe/Berlin", rec.Timezone)
	assert.Equal(t, []contactstore.CustomValue{{ID: "cfRace", Value: "x"}}, rec.CustomFields)
	assert.Len(t, log.take(t), len(updates), "one ContactUpdate per committed update")
	_, found := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"first0"}})
	require.Equal(t, 1, found.Count, "indexed once")
}

func TestConcurrentUpsertsOfOneEmailMakeOneContact(t *testing.T) {
	env, token := newEnv(t)
	const racers = 8
	type result struct {
		status int
		got    upserted
	}
	results := make([]result, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			resp := env.Do(t, testenv.Request{Method: "POST", Path: "/contacts/upsert", Token: token,
				Body: map[string]any{"locationId": acctA, "email": "race@example.com", "firstName": fmt.Sprintf("Racer%d", i)}})
			results[i].status = resp.Status
			if resp.Status == http.StatusOK {
				resp.JSON(t, &results[i].got)
			}
		})
	}
	wg.Wait()
	created, id := 0, ""
	for _, r := range results {
		require.Equal(t, http.StatusOK, r.status)
		if r.got.New {
			created++
		}
		if id == "" {
			id = r.got.Contact.ID
		}
		assert.Equal(t, id, r.got.Contact.ID, "every upsert answers the one contact")
	}
	assert.Equal(t, 1, created, "one upsert created it, the others updated it")
	_, all := list(t, env, token, url.Values{"locationId": {acctA}})
	assert.Equal(t, 1, all.Count, "one contact in the account")
	_, found := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"race@example.com"}})
	assert.Equal(t, 1, found.Count, "indexed once")
}

// A task or note creation, as part B's operations make one: the child's
// item and one more childRev on the contact, on condition that the
// contact exists, in one transaction.
func createChild(ctx context.Context, table *storage.Table, accountID, contactID, childID string) error {
	contact := storage.Key{PK: storage.AccountPK(accountID), SK: "CONTACT#" + contactID}
	exists := expression.AttributeExists(expression.Name(storage.AttrPK))
	return table.Tx().
		Update(contact, expression.Add(expression.Name("childRev"), expression.Value(1)), &exists).
		Put(storage.Key{PK: storage.AccountPK(accountID), SK: "NOTE#" + contactID + "#" + childID}, storage.ItemAbsent()).
		Commit(ctx)
}

func TestADeleteRacingTheCreationOfItsContactsChildrenLeavesNoneBehind(t *testing.T) {
	env, token := newEnv(t)
	ctx := context.Background()
	ids := seedContacts(t, env, acctA, 6)
	for _, id := range ids {
		var wg sync.WaitGroup
		wg.Go(func() {
			resp := env.Do(t, testenv.Request{Method: "DELETE", Path: "/contacts/" + id, Token: token})
			assert.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		})
		for n := range 4 {
			wg.Go(func() {
				// Refused once the contact is gone: that is the point.
				_ = createChild(ctx, env.Table, acctA, id, fmt.Sprintf("N%d", n))
			})
		}
		wg.Wait()
		assert.Nil(t, stored(t, env, acctA, id))
		for _, prefix := range []string{"NOTE#", "TASK#"} {
			left, err := storage.QueryPartition[storage.Key](ctx, env.Table, storage.AccountPK(acctA), prefix+id+"#")
			require.NoError(t, err)
			assert.Empty(t, left, "no child of %s outlives it", id)
		}
	}
}
