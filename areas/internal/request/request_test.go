package request_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

type body struct {
	LocationID *string `json:"locationId"`
	Name       *string `json:"name"`
}

func (b *body) check(v *validate.Errors) *string {
	v.Required("name", b.Name)
	return b.LocationID
}

func post(raw string) *http.Request {
	r := httptest.NewRequest("POST", "/x?locationId=acct2", strings.NewReader(raw))
	r.Header.Set("Content-Type", "application/json")
	return r.WithContext(auth.WithPrincipal(r.Context(), &auth.Principal{AccountID: "acct1"}))
}

func TestTheRequestsOwnRulesAnswerBeforeItsAccount(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		code apierror.Code
	}{
		{"a broken rule naming another account is the rule's error", `{"locationId":"acct2"}`, apierror.CodeValidation},
		{"a well-formed request naming another account is refused access", `{"locationId":"acct2","name":"n"}`, apierror.CodeForbidden},
		{"a body that is not JSON is a bad request", `{`, apierror.CodeBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := request.Body(post(c.body), (*body).check)
			assert.True(t, apierror.HasCode(err, c.code), "%v", err)
		})
	}
	t.Run("a well-formed request naming the token's account passes, with its principal", func(t *testing.T) {
		b, p, err := request.Body(post(`{"locationId":"acct1","name":"n"}`), (*body).check)
		require.NoError(t, err)
		assert.Equal(t, "n", *b.Name)
		assert.Equal(t, "acct1", p.AccountID)
	})
	t.Run("a request that may name no account acts on the token's", func(t *testing.T) {
		_, p, err := request.Body(post(`{"name":"n"}`), (*body).check)
		require.NoError(t, err)
		assert.Equal(t, "acct1", p.AccountID)
	})
	t.Run("a query's rules come first too", func(t *testing.T) {
		parse := func(q httpio.Query, v *validate.Errors) (string, *string) {
			id := q.RequiredID("locationId")
			v.Add("limit must be a number")
			return id, &id
		}
		_, _, err := request.Query(post(""), parse)
		assert.True(t, apierror.HasCode(err, apierror.CodeValidation), "%v", err)
	})
}
