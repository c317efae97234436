package brandboards_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/areas/brandboards"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

func TestSeedRefusesMalformedData(t *testing.T) {
	env := testenv.New(t, []app.Area{brandboards.Area})
	cases := []struct{ name, data, want string }{
		{"a board id that cannot be a key part", `{"brandBoards":[{"_id":"a#b","locationId":"acct"}]}`, "brand board id"},
		{"two default boards in one account", `{"brandBoards":[{"_id":"b1","locationId":"acct","default":true},{"_id":"b2","locationId":"acct","default":true}]}`, "two default boards"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := brandboards.Area.Seed(context.Background(), env.Deps, json.RawMessage(tc.data))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
