package hardening

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/validate"
)

// TestAltTypeLocationIsTakenAsAccountByEveryOperationThatReadsIt sends each
// operation's sample that names its account by altId/altType with altType
// "location" (the public platform's name, which ported code sends): it
// succeeds as the sample does, and any altType in the answer is the
// contract's "account".
func TestAltTypeLocationIsTakenAsAccountByEveryOperationThatReadsIt(t *testing.T) {
	d := newDemoEnvOf(t, []string{"medias", "payments", "products", "store"})
	var withAltType []samples.Request
	for _, s := range samples.All {
		if strings.Contains(s.Body, `"altType":"account"`) || strings.Contains(s.Query, "altType=account") {
			withAltType = append(withAltType, s)
		}
	}
	// Every operation whose input has altType: in the body or the query.
	require.Len(t, withAltType, 7)

	for _, s := range withAltType {
		where := "the body"
		if s.Query != "" {
			where = "the query"
		}
		t.Run(s.Op.ID()+" takes location in "+where+" and answers account", func(t *testing.T) {
			in := opInputs{Request: s}
			req := in.request(d.tokenFor(demo.AccountAlpha, s.Op.MarketplaceOnly), `"altType":"account"`, `"altType":"location"`, "altType=account", "altType=location")
			resp := d.Do(t, req)
			require.Equal(t, s.Status, resp.Status, "body: %s", resp.Body)
			var answer any
			if len(resp.Body) > 0 {
				require.NoError(t, json.Unmarshal(resp.Body, &answer))
			}
			answered := 0
			walk(answer, func(p jsonPath, v any) {
				if p.name() == "altType" {
					answered++
					assert.Equal(t, validate.AltType, v, "%s in the answer", p)
				}
			})
			if strings.Contains(s.Answer, `"altType"`) {
				assert.Positive(t, answered, "the answer names altType, as the sample's does")
			}
		})
	}
	t.Run("another name is still refused, naming the contract's value", func(t *testing.T) {
		s := withAltType[0]
		req := opInputs{Request: s}.request(d.tokenFor(demo.AccountAlpha, s.Op.MarketplaceOnly), `"altType":"account"`, `"altType":"Location"`, "altType=account", "altType=Location")
		msg := d.Do(t, req).RequireError(t, s.Op.ValidationStatus)
		assert.Contains(t, msg, "altType must be one of: account")
	})
}
