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
		{"a custom object key without the prefix", `{"customObjects":[{"locationId":"a","key":"pet"}]}`, "custom object key"},
		{"a record id that cannot be a key part", `{"customObjects":[{"locationId":"a","key":"custom_objects.pet","records":[{"id":"p#1"}]}]}`, "custom record id"},
		{"an association with an unsupported object key", `{"associations":[{"locationId":"a","id":"x","key":"k","firstObjectKey":"deal","secondObjectKey":"contact"}]}`, "object key"},
		{"two associations with one key", `{"associations":[{"locationId":"a","id":"x","key":"k","firstObjectKey":"contact","secondObjectKey":"contact"},{"locationId":"a","id":"y","key":"K","firstObjectKey":"contact","secondObjectKey":"contact"}]}`, "used twice"},
		{"a relation under an unknown association", `{"relations":[{"locationId":"a","id":"r","associationId":"nope","firstRecordId":"a1","secondRecordId":"b1"}]}`, "not in the data"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := associations.Area.Seed(context.Background(), env.Deps, json.RawMessage(tc.data))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
