package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
)

// readMeter asks DynamoDB for the capacity each read consumes and sums the
// read units, as AWS would bill them.
type readMeter struct {
	storage.API
	mu    sync.Mutex
	units float64
}

func (m *readMeter) add(cs ...types.ConsumedCapacity) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range cs {
		m.units += aws.ToFloat64(c.CapacityUnits)
	}
}

// take returns the read units consumed since the last take.
func (m *readMeter) take() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.units
	m.units = 0
	return u
}

func (m *readMeter) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	out, err := m.API.GetItem(ctx, in, opts...)
	if err == nil && out.ConsumedCapacity != nil {
		m.add(*out.ConsumedCapacity)
	}
	return out, err
}

func (m *readMeter) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	out, err := m.API.Query(ctx, in, opts...)
	if err == nil && out.ConsumedCapacity != nil {
		m.add(*out.ConsumedCapacity)
	}
	return out, err
}

func (m *readMeter) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	out, err := m.API.BatchGetItem(ctx, in, opts...)
	if err == nil {
		m.add(out.ConsumedCapacity...)
	}
	return out, err
}

// capacityContacts are n contacts shaped like the demo's: a name, an
// e-mail, a phone, a source, a country, a time zone and a tag. Every
// third is an Ann and every second a Lee.
func capacityContacts(account string, n int) []contactstore.Contact {
	start, _ := time.Parse(time.RFC3339, epoch)
	list := make([]contactstore.Contact, n)
	for i := range list {
		first, last := []string{"Ann", "Bea", "Cyd"}[i%3], []string{"Lee", "Park"}[i%2]
		list[i] = contactstore.Contact{
			ID: fmt.Sprintf("ctc%017d", i), LocationID: account, ContactName: first + " " + last, FirstName: first, LastName: last,
			Email: fmt.Sprintf("%s.%s%d@example.com", first, last, i), Phone: fmt.Sprintf("+1555%07d", i),
			Source: "referral", Country: "DE", Timezone: "Europe/Berlin", Tags: []string{"customer"},
			DateAdded: start.Add(time.Duration(i) * time.Minute).Format(time.RFC3339),
		}
	}
	return list
}

// The read units of the list and of searches, as AWS bills them
// (ReturnConsumedCapacity), for pages of 20 in an account of 150 contacts.
func TestListAndSearchPagesCostFewReadUnits(t *testing.T) {
	table := testenv.NewTable(t)
	meter := &readMeter{API: table.DB}
	env := testenv.New(t, []app.Area{contacts.Area}, testenv.WithTable(&storage.Table{DB: meter, Name: table.Name}))
	env.Account(t, acctA, company)
	token, _ := env.Token(t, acctA)
	all := capacityContacts(acctA, 150)
	seedList(t, env, all)
	list(t, env, token, url.Values{"locationId": {acctA}}) // the token is known
	cursor := func(c contactstore.Contact) url.Values {
		added, _ := time.Parse(time.RFC3339, c.DateAdded)
		return url.Values{"startAfterId": {c.ID}, "startAfter": {fmt.Sprint(added.UnixMilli())}}
	}
	with := func(q url.Values, more url.Values) url.Values {
		for k, v := range more {
			q[k] = v
		}
		return q
	}
	tenthAnn := all[27]

	for _, tc := range []struct {
		name  string
		query url.Values
		most  float64
	}{
		{"a list page", url.Values{}, 3},
		// Counting reads what precedes the cursor: here 41 contacts.
		{"a list page after a cursor, numbered by counting", cursor(all[40]), 4},
		{"a search page of one word", url.Values{"query": {"ann"}}, 5},
		{"a search page of one word after a cursor, numbered by counting", with(url.Values{"query": {"ann"}}, cursor(tenthAnn)), 5},
		{"a search page of two words", url.Values{"query": {"ann lee"}}, 5},
	} {
		t.Run(tc.name+" costs at most a few read units", func(t *testing.T) {
			q := with(url.Values{"locationId": {acctA}, "limit": {"20"}}, tc.query)
			meter.take()
			resp, body := list(t, env, token, q)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			units := meter.take()
			t.Logf("%s: %.1f read units, %d contacts of %d", tc.name, units, len(body.Contacts), body.Count)
			assert.Len(t, body.Contacts, 20)
			assert.LessOrEqual(t, units, tc.most)
		})
	}
}
