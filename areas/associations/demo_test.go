package associations_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// The demo dataset loads, and the example requests of the documentation
// succeed against it.
func TestDemoDataServesTheDocumentedExamples(t *testing.T) {
	areas := []app.Area{contacts.Area, associations.Area}
	env := testenv.New(t, areas)
	all, err := demo.Default()
	require.NoError(t, err)
	ds := demo.Dataset{}
	for _, part := range []string{demo.AccountsPart, "contacts", "associations"} {
		require.Contains(t, all, part)
		ds[part] = all[part]
	}
	_, err = demo.Load(context.Background(), env.Deps, ds, areas)
	require.NoError(t, err)
	token, _ := env.Token(t, demo.AccountAlpha)
	store := associations.NewGraph(env.Table)

	t.Run("the demo custom objects exist in Alpha", func(t *testing.T) {
		for _, name := range []string{"pet", "vehicle"} {
			obj, err := store.CustomObject(context.Background(), demo.AccountAlpha, name)
			require.NoError(t, err)
			require.NotNil(t, obj, name)
			assert.Equal(t, "custom_objects."+name, obj.Key)
		}
	})
	t.Run("the example association is created", func(t *testing.T) {
		resp := post(t, env, token, associationsPath, map[string]any{
			"locationId": demo.AccountAlpha, "key": "vehicle_driver",
			"firstObjectLabel": "Vehicle", "firstObjectKey": "custom_objects.vehicle",
			"secondObjectLabel": "Driver", "secondObjectKey": "contact",
		})
		requireStatus(t, resp, http.StatusCreated)
	})
	t.Run("the demo key pet_owner is taken", func(t *testing.T) {
		resp := post(t, env, token, associationsPath, map[string]any{
			"locationId": demo.AccountAlpha, "key": "pet_owner",
			"firstObjectLabel": "Pet", "firstObjectKey": "custom_objects.pet",
			"secondObjectLabel": "Owner", "secondObjectKey": "contact",
		})
		assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "key")
	})
	t.Run("the example relation is created", func(t *testing.T) {
		resp := post(t, env, token, relationsPath, map[string]any{
			"locationId": demo.AccountAlpha, "associationId": "demoAscAlpha00000001",
			"firstRecordId": "demoPetAlpha00000003", "secondRecordId": "demoCtcAlpha00000010",
		})
		requireStatus(t, resp, http.StatusCreated)
	})
	t.Run("a seeded relation is already there", func(t *testing.T) {
		resp := post(t, env, token, relationsPath, map[string]any{
			"locationId": demo.AccountAlpha, "associationId": "demoAscAlpha00000003",
			"firstRecordId": "demoCtcAlpha00000006", "secondRecordId": "demoCtcAlpha00000005",
		})
		assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "already related")
	})
}
