package app_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

type seedTask struct {
	ID string `json:"id"`
}

type seedContact struct {
	ID        string     `json:"id"`
	AccountID string     `json:"locationId"`
	Added     string     `json:"dateAdded"`
	Score     int        `json:"score"`
	Tasks     []seedTask `json:"tasks"`
}

type seedPart struct {
	Contacts []seedContact `json:"contacts"`
}

func keyOf(c *seedContact) (string, string) { return c.AccountID, c.ID }

func checkContact(c *seedContact) error {
	var v validate.Errors
	v.ID("id", c.ID)
	v.Time("dateAdded", &c.Added, "2026-11-24T21:58:00.000Z")
	if err := v.Err(); err != nil {
		return err
	}
	return app.CheckRecords("tasks", c.Tasks, func(t *seedTask) (string, string) { return "", t.ID }, func(t *seedTask) error {
		return validate.ErrorOf(validate.IDProblem("id", t.ID))
	})
}

func TestARefusedDatasetRecordIsNamedByListPlaceAndIdThenField(t *testing.T) {
	cases := []struct {
		name     string
		contacts []seedContact
		want     string
	}{
		{"a field that breaks a rule", []seedContact{{ID: "c1"}, {ID: "c2", Added: "tuesday"}},
			"contacts[1] (id c2): dateAdded must be an RFC 3339 time"},
		{"every broken rule of the record", []seedContact{{ID: "c#1", Added: "tuesday"}},
			"contacts[0] (id c#1): id must be an id of 1 to 64 letters, digits, '_' or '-'; dateAdded must be an RFC 3339 time"},
		{"a record without an id, by its place", []seedContact{{Added: "tuesday"}}, "contacts[0]: id is required; dateAdded must be an RFC 3339 time"},
		{"a record of a record's list, after its owner", []seedContact{{ID: "c1", Tasks: []seedTask{{ID: "t1"}, {}}}},
			"contacts[0] (id c1): tasks[1]: id is required"},
		{"an id two records of one account have", []seedContact{{ID: "c1", AccountID: "a"}, {ID: "c1", AccountID: "b"}, {ID: "c1", AccountID: "a"}},
			"contacts[2] (id c1): id is taken by contacts[0] in account a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := app.CheckRecords("contacts", tc.contacts, keyOf, checkContact)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			var re *app.RecordError
			assert.True(t, errors.As(err, &re))
		})
	}
	t.Run("a record left without a time gets the one given", func(t *testing.T) {
		contacts := []seedContact{{ID: "c1"}}
		require.NoError(t, app.CheckRecords("contacts", contacts, keyOf, checkContact))
		assert.Equal(t, "2026-11-24T21:58:00.000Z", contacts[0].Added)
	})
}

func TestADatasetRecordThatDoesNotDecodeIsNamedWithItsField(t *testing.T) {
	cases := []struct{ name, part, want string }{
		{"a value of the wrong JSON type", `{"contacts":[{"id":"c1"},{"id":"c2","score":"high"}]}`, "contacts[1] (id c2): score must be a whole number, not string"},
		{"a field the records do not have", `{"contacts":[{"id":"c1","dateAdde":"2026-01-01T00:00:00Z"}]}`, `contacts[0] (id c1): unknown field "dateAdde"`},
		{"a field of a record's list", `{"contacts":[{"tasks":[{"id":7}]}]}`, "contacts[0]: tasks.id must be a string, not number"},
		{"a list that is not a list", `{"contacts":{"id":"c1"}}`, "contacts must be a list of records"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var part seedPart
			err := app.DecodeSeed(json.RawMessage(tc.part), &part)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}
