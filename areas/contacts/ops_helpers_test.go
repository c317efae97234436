package contacts_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/events"
)

// record is a contact as the contact operations answer it.
type record struct {
	ID                 string                           `json:"id"`
	Name               string                           `json:"name"`
	LocationID         string                           `json:"locationId"`
	FirstName          string                           `json:"firstName"`
	LastName           string                           `json:"lastName"`
	FirstNameLowerCase string                           `json:"firstNameLowerCase"`
	FullNameLowerCase  string                           `json:"fullNameLowerCase"`
	Email              string                           `json:"email"`
	EmailLowerCase     string                           `json:"emailLowerCase"`
	Phone              string                           `json:"phone"`
	CompanyName        string                           `json:"companyName"`
	City               string                           `json:"city"`
	State              string                           `json:"state"`
	PostalCode         string                           `json:"postalCode"`
	Country            string                           `json:"country"`
	Website            string                           `json:"website"`
	Timezone           string                           `json:"timezone"`
	Source             string                           `json:"source"`
	Address1           string                           `json:"address1"`
	DND                bool                             `json:"dnd"`
	DNDSettings        *contactstore.DNDSettings        `json:"dndSettings"`
	InboundDNDSettings *contactstore.InboundDNDSettings `json:"inboundDndSettings"`
	Tags               []string                         `json:"tags"`
	CustomFields       []contactstore.CustomValue       `json:"customFields"`
	DateOfBirth        string                           `json:"dateOfBirth"`
	AssignedTo         string                           `json:"assignedTo"`
	DateAdded          string                           `json:"dateAdded"`
	DateUpdated        string                           `json:"dateUpdated"`
	SearchAfter        []any                            `json:"searchAfter"`
}

// createContact sends POST /contacts/ for account and answers the contact
// created (the request must succeed).
func createContact(t *testing.T, env *testenv.Env, token, account string, fields map[string]any) record {
	t.Helper()
	body := map[string]any{"locationId": account}
	for k, v := range fields {
		body[k] = v
	}
	resp := env.Do(t, testenv.Request{Method: "POST", Path: "/contacts/", Token: token, Body: body})
	require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
	var got struct {
		Contact record `json:"contact"`
	}
	resp.JSON(t, &got)
	return got.Contact
}

// contactOf decodes an answer holding a contact.
func contactOf(t *testing.T, resp *testenv.Response) record {
	t.Helper()
	var got struct {
		Contact record `json:"contact"`
	}
	resp.JSON(t, &got)
	return got.Contact
}

// stored reads a contact from storage (nil: none).
func stored(t *testing.T, env *testenv.Env, account, id string) *contactstore.Record {
	t.Helper()
	rec, err := contactstore.NewContacts(env.Table).GetRecord(context.Background(), account, id)
	require.NoError(t, err)
	return rec
}

// eventLog reads the account's events written since it last looked.
type eventLog struct {
	env     *testenv.Env
	account string
	seen    map[string]bool
}

// eventBody is a contact event's body.
type eventBody struct {
	Type string `json:"type"`
	contactstore.ContactFields
}

// take returns the events written since the last take.
func (l *eventLog) take(t *testing.T) []eventBody {
	t.Helper()
	all := testenv.Events(t, l.env.Table, events.Owner{LocationID: l.account})
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	var out []eventBody
	for _, e := range all {
		if l.seen[e.ID] {
			continue
		}
		l.seen[e.ID] = true
		var b eventBody
		require.NoError(t, json.Unmarshal([]byte(e.Body), &b))
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b eventBody) int { return strings.Compare(a.Type, b.Type) })
	return out
}

// typesOf are the events' types.
func typesOf(evs []eventBody) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}
