package auth_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

func TestAnAuthorizationHeaderThatIsWrongSaysWhatIsWrongWithIt(t *testing.T) {
	env := testenv.New(t, []app.Area{testenv.PingArea})
	cases := []struct {
		name, header, want, not string
	}{
		{"no header asks for a bearer token", "", "Missing bearer token", ""},
		{"the Bearer scheme with an empty token says the token is empty", "Bearer ", "bearer token is empty", "Bearer scheme"},
		{"the Bearer scheme with only spaces says the token is empty", "Bearer    ", "bearer token is empty", "Bearer scheme"},
		{"the scheme alone says the token is empty", "Bearer", "bearer token is empty", "Bearer scheme"},
		{"another scheme asks for the Bearer scheme", "Basic dXNlcjpwYXNz", "use the Bearer scheme", "empty"},
		{"a token without a scheme asks for the Bearer scheme", "bpt_abc", "use the Bearer scheme", "empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: "/ping", Headers: map[string]string{"Authorization": tc.header}})
			msg := resp.RequireError(t, http.StatusUnauthorized)
			assert.Contains(t, msg, tc.want)
			if tc.not != "" {
				assert.NotContains(t, msg, tc.not)
			}
		})
	}
}
