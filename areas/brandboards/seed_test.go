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
		{"a board id that cannot be a key part", `{"brandBoards":[{"_id":"a#b","locationId":"acct","name":"B"}]}`, "brandBoards[0] (id a#b): _id must be an id"},
		{"two default boards in one account", `{"brandBoards":[{"_id":"b1","locationId":"acct","name":"B1","default":true},{"_id":"b2","locationId":"acct","name":"B2","default":true}]}`,
			"brandBoards[1] (id b2): default: account acct has a default board already (b1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := brandboards.Area.Seed(context.Background(), env.Deps, json.RawMessage(tc.data))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
