package conversations_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/conversations"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// demoEnv loads the real demo dataset (accounts and this area's part) and
// the demo tokens, as a fresh `make run` does, and returns the every-scope
// token of Alpha.
func demoEnv(t *testing.T) (*testenv.Env, []conversations.Message, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{conversations.Area})
	ds, err := demo.Default()
	require.NoError(t, err)
	part := demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart], "conversations": ds["conversations"]}
	_, err = demo.Load(context.Background(), env.Deps, part, []app.Area{conversations.Area})
	require.NoError(t, err, "the demo dataset loads")
	_, err = demo.CreateTokens(context.Background(), env.Server.Tokens, testenv.Endpoint(t))
	if errors.Is(err, demo.ErrNotLocal) {
		t.Skip("demo tokens exist only on a local engine")
	}
	require.NoError(t, err)
	var data conversations.SeedData
	require.NoError(t, json.Unmarshal(ds["conversations"], &data))
	return env, data.Messages, demo.Tokens[0].Value()
}

func TestDemoMessagesAreServedToTheirAccountOnly(t *testing.T) {
	env, msgs, token := demoEnv(t)
	require.Equal(t, "bpt_DemoAllScopesAlphaLocal0000000011xFMXT", token, "the README's demo token")

	types := map[int]int{}
	for _, m := range msgs {
		resp := getMessage(t, env, token, m.ID)
		if m.LocationID != demo.AccountAlpha {
			resp.RequireError(t, http.StatusNotFound)
			continue
		}
		require.Equal(t, http.StatusOK, resp.Status, "message %s: %s", m.ID, resp.Body)
		var got conversations.Message
		resp.JSON(t, &got)
		if m.Type == 1 || m.Type == 10 {
			assert.Empty(t, m.Attachments, "demo call %s stores no attachments", m.ID)
		}
		assert.Equal(t, m, got, "message %s is served as the demo file holds it", m.ID)
		types[m.Type]++
	}
	for _, typ := range []int{1, 2, 3, 10} {
		assert.NotZero(t, types[typ], "the demo data has a type %d message", typ)
	}
}

// The example request of docs/api.md.
func TestDemoExampleGetEmailMessage(t *testing.T) {
	env, _, token := demoEnv(t)
	resp := getMessage(t, env, token, "demoMsgAlpha00000004")
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	body := resp.Map(t)
	assert.Equal(t, "TYPE_EMAIL", body["messageType"])
	assert.Equal(t, map[string]any{"email": map[string]any{"messageIds": []any{"demoMsgAlpha00000004", "demoMsgAlpha00000005", "demoMsgAlpha00000006"}}}, body["meta"])
	resp = getMessage(t, env, token, "demoMsgAlpha00000007")
	require.Equal(t, http.StatusOK, resp.Status)
	assert.Equal(t, []any{}, resp.Map(t)["attachments"])
}
