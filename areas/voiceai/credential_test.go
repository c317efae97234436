package voiceai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"maps"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// rawItem reads the stored item of Alpha's custom action with the SDK,
// around the API, as JSON text.
func rawItem(t *testing.T, env *testenv.Env, id string) string {
	t.Helper()
	db, err := dynamo.NewClient(context.Background(), testenv.Endpoint(t), "us-east-1", nil)
	require.NoError(t, err)
	key := storage.Key{PK: storage.AccountPK(acctA), SK: "VOICEACTION#" + agentA + "#" + id}
	out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: &env.Table.Name, Key: key.AV(), ConsistentRead: new(true)})
	require.NoError(t, err)
	require.NotNil(t, out.Item)
	var item map[string]any
	require.NoError(t, attributevalue.UnmarshalMap(out.Item, &item))
	raw, err := json.Marshal(item)
	require.NoError(t, err)
	return string(raw)
}

// leakForms are the ways a credential could be found: as it is, and in the
// encodings a stored or logged byte string takes.
func leakForms(value string) []string {
	return []string{value, base64.StdEncoding.EncodeToString([]byte(value)), base64.RawURLEncoding.EncodeToString([]byte(value))}
}

func TestACustomActionsCredentialIsStoredSealedAndAnsweredMasked(t *testing.T) {
	var logs testenv.LogBuffer
	env := testenv.New(t, []app.Area{voiceai.Area}, testenv.WithLogOutput(&logs))
	env.Account(t, acctA, company)
	env.Seed(t, voiceai.Area, fixture(t))
	token, _ := env.Token(t, acctA)
	store := voiceai.NewAgents(env.Table)
	id := actionID(voiceai.TypeCustomAction)

	withCredential := func(value any, url string) map[string]any {
		p := updateParams(voiceai.TypeCustomAction)
		details := maps.Clone(p["apiDetails"].(map[string]any))
		details["url"] = url
		if value == nil {
			delete(details, "authenticationValue")
		} else {
			details["authenticationValue"] = value
		}
		p["apiDetails"] = details
		return body(voiceai.TypeCustomAction, p)
	}
	answered := func(t *testing.T, resp *testenv.Response) string {
		t.Helper()
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		var a struct {
			ActionParameters struct {
				APIDetails map[string]any `json:"apiDetails"`
			} `json:"actionParameters"`
		}
		require.NoError(t, json.Unmarshal(resp.Body, &a))
		return a.ActionParameters.APIDetails["authenticationValue"].(string)
	}
	opened := func(t *testing.T) string {
		t.Helper()
		got := getAction(t, store, acctA, agentA, id)
		require.NotNil(t, got.action.Credential, "a credential is stored, sealed")
		value, err := voiceai.OpenCredential(context.Background(), env.Deps.Secrets, got.action)
		require.NoError(t, err)
		return value
	}
	const first = "sk_live_51HfirstCredential9876"
	const second = "sk_live_51HsecondCredential4321"
	const url = "https://hooks.example.com/callbacks"
	var answers []*testenv.Response

	t.Run("a new credential is answered masked, stored sealed, and opens to what was sent", func(t *testing.T) {
		resp := update(t, env, token, id, withCredential(first, url))
		answers = append(answers, resp)
		assert.Equal(t, "••••9876", answered(t, resp))
		item := rawItem(t, env, id)
		for _, form := range leakForms(first) {
			assert.NotContains(t, item, form, "the stored item does not hold the credential")
		}
		assert.Contains(t, item, `"authenticationValue":"••••9876"`)
		assert.Contains(t, item, `"credential":{`)
		assert.Equal(t, first, opened(t))
	})
	t.Run("an update that leaves the credential out keeps it", func(t *testing.T) {
		resp := update(t, env, token, id, withCredential(nil, url))
		answers = append(answers, resp)
		assert.Equal(t, "••••9876", answered(t, resp))
		assert.Equal(t, first, opened(t))
	})
	t.Run("an update that sends the mask back keeps it", func(t *testing.T) {
		resp := update(t, env, token, id, withCredential("••••9876", "https://HOOKS.example.com/other-path"))
		answers = append(answers, resp)
		assert.Equal(t, "••••9876", answered(t, resp))
		assert.Equal(t, first, opened(t))
	})
	t.Run("an update that moves the URL to another host must send the credential again", func(t *testing.T) {
		before := getAction(t, store, acctA, agentA, id)
		for _, value := range []any{nil, "••••9876"} {
			resp := update(t, env, token, id, withCredential(value, "https://collector.example.net/steal"))
			answers = append(answers, resp)
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "authenticationValue must be sent again when apiDetails.url moves to another host")
		}
		assert.Equal(t, before, getAction(t, store, acctA, agentA, id), "nothing is written")
	})
	t.Run("a mask that is not this action's is refused", func(t *testing.T) {
		resp := update(t, env, token, id, withCredential("••••0000", url))
		answers = append(answers, resp)
		assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "is a masked value that is not this action's")
	})
	t.Run("a new credential replaces the stored one", func(t *testing.T) {
		resp := update(t, env, token, id, withCredential(second, "https://collector.example.net/hook"))
		answers = append(answers, resp)
		assert.Equal(t, "••••4321", answered(t, resp))
		assert.Equal(t, second, opened(t))
	})
	t.Run("a short credential is masked whole", func(t *testing.T) {
		resp := update(t, env, token, id, withCredential("pin-4711", url))
		answers = append(answers, resp)
		assert.Equal(t, "••••••••", answered(t, resp))
		assert.Equal(t, "pin-4711", opened(t))
	})
	t.Run("turning authentication off drops the credential", func(t *testing.T) {
		b := withCredential(nil, url)
		b["actionParameters"].(map[string]any)["apiDetails"].(map[string]any)["authenticationRequired"] = false
		resp := update(t, env, token, id, b)
		answers = append(answers, resp)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		got := getAction(t, store, acctA, agentA, id)
		assert.Nil(t, got.action.Credential)
		assert.NotContains(t, rawItem(t, env, id), `"credential"`)
	})
	t.Run("with authentication on again there is nothing to keep", func(t *testing.T) {
		resp := update(t, env, token, id, withCredential(nil, url))
		answers = append(answers, resp)
		assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "authenticationValue is required: the action has no stored value to keep")
	})
	t.Run("no answer and no log line holds a credential", func(t *testing.T) {
		logText := logs.String()
		require.NotEmpty(t, logText)
		for _, value := range []string{first, second, "pin-4711"} {
			for _, form := range leakForms(value) {
				assert.NotContains(t, logText, form)
				for i, resp := range answers {
					assert.NotContains(t, string(resp.Body), form, "answer %d", i)
				}
			}
		}
	})
}

func TestASealedCredentialDoesNotOpenForAnotherAction(t *testing.T) {
	env, token, store := newEnv(t)
	p := updateParams(voiceai.TypeCustomAction)
	require.Equal(t, http.StatusOK, update(t, env, token, actionID(voiceai.TypeCustomAction), body(voiceai.TypeCustomAction, p)).Status)
	got := getAction(t, store, acctA, agentA, actionID(voiceai.TypeCustomAction))
	require.NotNil(t, got.action.Credential)

	moved := *got.action
	moved.ID = actionID(voiceai.TypeSMS)
	_, err := voiceai.OpenCredential(context.Background(), env.Deps.Secrets, &moved)
	assert.Error(t, err, "a credential copied to another action's item does not open")

	other, err := secrets.NewEphemeralKeeper()
	require.NoError(t, err)
	_, err = voiceai.OpenCredential(context.Background(), other, got.action)
	assert.Error(t, err, "nor with another key")
}

func TestSeededCredentialsAreSealedToo(t *testing.T) {
	env, _, store := newEnv(t)
	raw := `{"agents":[{"id":"agentSeeded","locationId":"` + acctA + `","name":"Seeded","dateAdded":"` + seededDate + `","actions":[
		{"id":"actSeeded","actionType":"CUSTOM_ACTION","name":"Seeded","actionParameters":{"triggerPrompt":"p","triggerMessage":"m",
		 "apiDetails":{"url":"https://api.example.org/x","method":"POST","authenticationRequired":true,"authenticationValue":"seeded-credential-value"}}}]}]}`
	env.Seed(t, voiceai.Area, raw)
	a, _, err := store.GetAction(context.Background(), acctA, "agentSeeded", "actSeeded")
	require.NoError(t, err)
	require.NotNil(t, a.Credential)
	assert.Equal(t, "••••alue", a.ActionParameters["apiDetails"].(map[string]any)["authenticationValue"])
	value, err := voiceai.OpenCredential(context.Background(), env.Deps.Secrets, a)
	require.NoError(t, err)
	assert.Equal(t, "seeded-credential-value", value)

	t.Run("without a key a credential cannot be seeded", func(t *testing.T) {
		deps := env.Deps
		deps.Secrets = nil
		err := voiceai.Area.Seed(context.Background(), deps, []byte(raw))
		assert.ErrorIs(t, err, secrets.ErrNoKeeper)
	})
}
