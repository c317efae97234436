package associations_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

func TestSeedRefusesMalformedData(t *testing.T) {
	env := testenv.New(t, []app.Area{associations.Area})
	cases := []struct{ name, data, want string }{
		{"a custom object key without the prefix", `{"customObjects":[{"locationId":"a","key":"pet"}]}`, "customObjects[0]: key must be"},
		{"a record id that cannot be a key part", `{"customObjects":[{"locationId":"a","key":"custom_objects.pet","records":[{"id":"p#1"}]}]}`, "customObjects[0]: records[0] (id p#1): id must be an id"},
		{"an association with an unsupported object key", `{"associations":[{"locationId":"a","id":"x","key":"k","firstObjectKey":"deal","secondObjectKey":"contact"}]}`, "associations[0] (id x): firstObjectKey must be"},
		{"two associations with one key", `{"associations":[{"locationId":"a","id":"x","key":"k","firstObjectKey":"contact","firstObjectLabel":"A","secondObjectKey":"contact","secondObjectLabel":"B"},{"locationId":"a","id":"y","key":"K","firstObjectKey":"contact","firstObjectLabel":"A","secondObjectKey":"contact","secondObjectLabel":"B"}]}`, "associations[1] (id y): key K is associations[0]'s too"},
		{"a relation under an unknown association", `{"relations":[{"locationId":"a","id":"r","associationId":"nope","firstRecordId":"a1","secondRecordId":"b1"}]}`, "relations[0] (id r): associationId nope is not an association of a in the data"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := associations.Area.Seed(context.Background(), env.Deps, json.RawMessage(tc.data))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
