package portal_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/marketplace"
)

// TestNoClientSecretCodeOrTokenOfAMarketplaceAppIsLogged runs a marketplace
// app's whole life through the consent page and the OAuth server on one log
// (consent, Cancel, Allow, the code exchange, a replayed code, a wrong
// client secret, a refresh, a reused refresh token, a company-token call
// revoked by the reuse) and checks that no log line holds a
// client secret, a code, an access or refresh token, or their stored hashes,
// though every request has its line.
func TestNoClientSecretCodeOrTokenOfAMarketplaceAppIsLogged(t *testing.T) {
	s := newSite(t)
	app, secret, srv := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly")
	secrets := []string{secret}

	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	consentPath := "/portal/oauth/chooselocation?" + authorizeQuery(app, "contacts.readonly")
	require.Equal(t, http.StatusOK, b.get(consentPath).status)
	decide := func(decision string) url.Values {
		return backTo(t, b.post("/portal/oauth/chooselocation", url.Values{
			"csrf": {csrf}, "response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {appRedirect},
			"scope": {"contacts.readonly"}, "state": {"st-42"}, "account": {"acct1"}, "decision": {decision},
		}))
	}
	assert.Equal(t, "access_denied", decide("cancel").Get("error"))
	code := decide("allow").Get("code")
	require.NotEmpty(t, code)
	secrets = append(secrets, code)

	token := func(form url.Values) (int, map[string]any) {
		resp, err := http.PostForm(srv.URL+"/oauth/token", form)
		require.NoError(t, err)
		defer resp.Body.Close()
		var body map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		return resp.StatusCode, body
	}
	exchange := url.Values{"grant_type": {"authorization_code"}, "client_id": {app.ClientID}, "client_secret": {secret},
		"code": {code}, "redirect_uri": {appRedirect}, "user_type": {marketplace.UserLocation}}
	status, first := token(exchange)
	require.Equal(t, http.StatusOK, status, first)
	secrets = append(secrets, first["access_token"].(string), first["refresh_token"].(string))

	status, _ = token(exchange)
	assert.Equal(t, http.StatusBadRequest, status, "a replayed code")

	// The replay revoked the install: a new consent for the rest.
	code = decide("allow").Get("code")
	secrets = append(secrets, code)
	exchange.Set("code", code)
	wrong := url.Values{}
	for k, v := range exchange {
		wrong[k] = v
	}
	wrong.Set("client_secret", secret[:len(secret)-4]+"XXXX")
	secrets = append(secrets, wrong.Get("client_secret"))
	status, _ = token(wrong)
	assert.Equal(t, http.StatusUnauthorized, status, "a wrong client secret")
	status, pair := token(exchange)
	require.Equal(t, http.StatusOK, status, pair)
	refresh := url.Values{"grant_type": {"refresh_token"}, "client_id": {app.ClientID}, "client_secret": {secret},
		"refresh_token": {pair["refresh_token"].(string)}, "user_type": {marketplace.UserLocation}}
	status, next := token(refresh)
	require.Equal(t, http.StatusOK, status, next)
	secrets = append(secrets, pair["access_token"].(string), pair["refresh_token"].(string), next["access_token"].(string), next["refresh_token"].(string))
	status, _ = token(refresh)
	assert.Equal(t, http.StatusBadRequest, status, "a reused refresh token")

	req, err := http.NewRequest(http.MethodGet, srv.URL+"/oauth/installedLocations?companyId=co1&appId="+app.ID, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+next["access_token"].(string))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "revoked with the install by the reuse")

	logText := s.logs.String()
	assert.GreaterOrEqual(t, strings.Count(logText, "/oauth/token"), 6, "each token request has its log line")
	assert.Contains(t, logText, "/portal/oauth/chooselocation")
	for _, v := range secrets {
		for _, form := range []string{v, auth.HashToken(v), v[len(v)-20:]} {
			assert.NotContains(t, logText, form)
		}
	}
}
