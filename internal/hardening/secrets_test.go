package hardening

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/operations"
)

// secretForms are the ways a token could leak: its value, its parts, the
// header that carries it, and its SHA-256 (the stored form) in hex and
// base64.
func secretForms(token string) []string {
	sum := sha256.Sum256([]byte(token))
	forms := []string{
		token,
		"Bearer " + token,
		auth.HashToken(token),
		strings.ToUpper(auth.HashToken(token)),
		hex.EncodeToString(sum[:16]), // half a hash is still a leak
		base64.StdEncoding.EncodeToString(sum[:]),
		base64.RawURLEncoding.EncodeToString(sum[:]),
	}
	if len(token) >= auth.TokenLength {
		forms = append(forms, token[len(auth.Prefix):], token[len(auth.Prefix):len(auth.Prefix)+16])
	}
	return forms
}

// session runs requests and remembers every answer and every
// Authorization header sent.
type session struct {
	t         *testing.T
	baseURL   string
	answers   []*testenv.Response
	headers   []string
	statuses  map[int]int
	requested int
}

func (s *session) do(req testenv.Request) *testenv.Response {
	s.t.Helper()
	if h, ok := req.Headers["Authorization"]; ok && h != "" {
		s.headers = append(s.headers, h)
	}
	resp := testenv.Send(s.t, s.baseURL, req)
	s.answers = append(s.answers, resp)
	s.statuses[resp.Status]++
	s.requested++
	return resp
}

// userSecrets are the secrets users hand the API in the session: the
// voice-AI custom action credentials of the demo data and of the good
// requests (allInputs).
var userSecrets = []string{"demo-billing-key-not-secret", "key-123"}

// TestNoSecretEverLeaks runs a whole session against the API (every
// operation succeeding once, bad requests, every kind of refused token,
// and requests while the database is gone) with the request log captured,
// and checks that no token, token hash, Authorization header or secret a
// user handed the API appears in any log line, answer body or answer
// header, nor any token value or user's secret in the table.
func TestNoSecretEverLeaks(t *testing.T) {
	var logs testenv.LogBuffer
	d := newDemoEnv(t, testenv.WithLogOutput(&logs))
	s := &session{t: t, baseURL: d.HTTP.URL, statuses: map[int]int{}}
	var tokens []string
	var appSecrets []string // client secrets and authorization codes
	for _, acct := range demoAccounts {
		tokens = append(tokens, d.private[acct], d.marketplace[acct])
	}
	alpha := d.private[demo.AccountAlpha]

	t.Run("every operation succeeds once", func(t *testing.T) {
		seen := map[string]bool{}
		for _, in := range allInputs {
			resp := s.do(in.request(d.tokenFor(demo.AccountAlpha, in.Op.MarketplaceOnly)))
			require.Equal(t, in.Status, resp.Status, "%s: %s", in.Op.ID(), clipBody(resp.Body))
			seen[in.Op.ID()] = true
		}
		assert.Len(t, seen, len(operations.All))
	})

	t.Run("bad requests of every operation are refused", func(t *testing.T) {
		for _, in := range allInputs {
			cases := casesFor(in)
			for _, c := range cases[:min(5, len(cases))] {
				resp := s.do(badRequest(c, d.tokenFor(demo.AccountAlpha, in.Op.MarketplaceOnly)))
				errorBody(t, resp)
			}
		}
	})

	t.Run("refused tokens get 401 or 403", func(t *testing.T) {
		revoked, revokedID := d.Token(t, demo.AccountAlpha)
		readOnly, _ := d.Token(t, demo.AccountAlpha, "contacts.readonly")
		unknown, err := auth.GenerateToken()
		require.NoError(t, err)
		badChecksum := alpha[:len(alpha)-1] + "A"
		if strings.HasSuffix(alpha, "A") {
			badChecksum = alpha[:len(alpha)-1] + "B"
		}
		tokens = append(tokens, revoked, readOnly, unknown, badChecksum)

		campaigns := "/campaigns/?locationId=" + demo.AccountAlpha
		require.Equal(t, http.StatusOK, s.do(testenv.Request{Method: "GET", Path: campaigns, Headers: bearer(revoked)}).Status)
		_, err = d.Server.Tokens.Revoke(context.Background(), revokedID)
		require.NoError(t, err)

		junk := "garbage-" + randomText(t)
		for _, tc := range []struct {
			name   string
			header string
			status int
		}{
			{"no token", "", http.StatusUnauthorized},
			{"a malformed token", "Bearer " + junk, http.StatusUnauthorized},
			{"another scheme", "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+alpha)), http.StatusUnauthorized},
			{"a token with trailing text", "Bearer " + alpha + "x", http.StatusUnauthorized},
			{"a token with a bad checksum", "Bearer " + badChecksum, http.StatusUnauthorized},
			{"an unknown token", "Bearer " + unknown, http.StatusUnauthorized},
			{"a revoked token", "Bearer " + revoked, http.StatusUnauthorized},
			{"a token without the scope", "Bearer " + readOnly, http.StatusForbidden},
			{"another account's token", "Bearer " + d.private[demo.AccountCharlie], http.StatusForbidden},
		} {
			t.Run(tc.name, func(t *testing.T) {
				req := testenv.Request{Method: "GET", Path: campaigns}
				if tc.header != "" {
					req.Headers = map[string]string{"Authorization": tc.header}
				}
				s.do(req).RequireError(t, tc.status)
			})
		}
		t.Run("a private token on a marketplace operation", func(t *testing.T) {
			in := goodInputs(t, operations.CreateWhitelabelProvider)
			req := in.request("")
			req.Headers = bearer(alpha)
			s.do(req).RequireError(t, http.StatusForbidden)
		})
		t.Run("a token put in the query string is not logged", func(t *testing.T) {
			s.do(testenv.Request{Method: "GET", Path: campaigns + "&access_token=" + alpha, Headers: bearer(alpha)})
		})
		t.Run("an unknown path", func(t *testing.T) {
			s.do(testenv.Request{Method: "GET", Path: "/nowhere", Headers: bearer(alpha)}).RequireError(t, http.StatusNotFound)
		})
	})

	// The token endpoint answers tokens by design: its answers are not
	// among those checked, its log lines and the table are.
	t.Run("a marketplace app's client secret, codes and tokens", func(t *testing.T) {
		oauthSrv := httptest.NewServer(oauth.New(d.Server.Core, time.Hour, 0))
		t.Cleanup(oauthSrv.Close)
		apps := marketplace.New(d.Server.Tokens, d.Clock, false)
		redirect := "https://bridge.example.com/cb"
		app, secret, err := apps.Create(t.Context(), marketplace.NewApp{CompanyID: demo.CompanyNorth, Name: "Bridge",
			RedirectURIs: []string{redirect}, Scopes: []string{"contacts.readonly"}})
		require.NoError(t, err)
		code, err := apps.IssueCode(t.Context(), marketplace.Consent{App: app, RedirectURI: redirect, Scopes: app.Scopes,
			CompanyID: demo.CompanyNorth, AccountID: demo.AccountAlpha, UserID: "usrHardening", By: auth.Operator})
		require.NoError(t, err)
		appSecrets = append(appSecrets, secret, code, secret[:len(secret)-1]+"x")
		grant := func(form url.Values) (int, map[string]any) {
			resp, err := http.PostForm(oauthSrv.URL+"/oauth/token", form)
			require.NoError(t, err)
			defer resp.Body.Close()
			var body map[string]any
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
			return resp.StatusCode, body
		}
		form := url.Values{"grant_type": {"authorization_code"}, "client_id": {app.ClientID}, "client_secret": {secret[:len(secret)-1] + "x"},
			"code": {code}, "redirect_uri": {redirect}, "user_type": {marketplace.UserLocation}}
		status, _ := grant(form)
		require.Equal(t, http.StatusUnauthorized, status, "a wrong client secret")
		form.Set("client_secret", secret)
		status, pair := grant(form)
		require.Equal(t, http.StatusOK, status, pair)
		access, refresh := pair["access_token"].(string), pair["refresh_token"].(string)
		tokens = append(tokens, access, refresh)

		contacts := testenv.Request{Method: "GET", Path: "/contacts/?locationId=" + demo.AccountAlpha}
		contacts.Headers = bearer(access)
		resp := s.do(contacts)
		require.Equal(t, http.StatusOK, resp.Status, clipBody(resp.Body))

		refreshForm := url.Values{"grant_type": {"refresh_token"}, "client_id": {app.ClientID}, "client_secret": {secret},
			"refresh_token": {refresh}, "user_type": {marketplace.UserLocation}}
		status, next := grant(refreshForm)
		require.Equal(t, http.StatusOK, status, next)
		tokens = append(tokens, next["access_token"].(string), next["refresh_token"].(string))
		status, _ = grant(refreshForm)
		require.Equal(t, http.StatusBadRequest, status, "a reused refresh token")
		status, _ = grant(form)
		require.Equal(t, http.StatusBadRequest, status, "a replayed code")
		contacts.Headers = bearer(next["access_token"].(string))
		s.do(contacts).RequireError(t, http.StatusUnauthorized)
	})

	t.Run("requests while the table is gone fail without leaking", func(t *testing.T) {
		gone := testenv.New(t, catalog.Areas, testenv.WithLogOutput(&logs))
		gone.Account(t, demo.AccountAlpha, demo.CompanyNorth)
		token, _ := gone.Token(t, demo.AccountAlpha)
		tokens = append(tokens, token)
		_, err := rawClient(t).DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &gone.Table.Name})
		require.NoError(t, err)
		outage := &session{t: t, baseURL: gone.HTTP.URL, statuses: map[int]int{}}
		for _, in := range allInputs[:3] {
			resp := outage.do(in.request(token))
			assert.GreaterOrEqual(t, resp.Status, 500, "body: %s", resp.Body)
		}
		s.answers = append(s.answers, outage.answers...)
		s.requested += outage.requested
		for status, n := range outage.statuses {
			s.statuses[status] += n
		}
	})

	t.Logf("session: %d requests, answers by status %v", s.requested, s.statuses)
	logText := logs.String()
	lines := strings.Count(logText, "\n")
	require.GreaterOrEqual(t, lines, s.requested, "one log line per request at least")
	assert.Contains(t, logText, `"error":`, "the outage's causes are logged")

	var secrets []string
	for _, tok := range append(tokens, appSecrets...) {
		secrets = append(secrets, secretForms(tok)...)
	}
	secrets = append(secrets, s.headers...)
	for _, us := range userSecrets {
		secrets = append(secrets, us, base64.StdEncoding.EncodeToString([]byte(us)))
	}
	t.Logf("%d log lines, %d answers, %d secret forms checked", lines, len(s.answers), len(secrets))

	t.Run("no log line holds a secret", func(t *testing.T) {
		for _, secret := range secrets {
			assert.NotContains(t, logText, secret)
		}
	})
	t.Run("no answer holds a secret", func(t *testing.T) {
		for i, resp := range s.answers {
			var headers strings.Builder
			for name, values := range resp.Header {
				headers.WriteString(name + ": " + strings.Join(values, ", ") + "\n")
			}
			for _, secret := range secrets {
				assert.NotContains(t, string(resp.Body), secret, "answer %d", i)
				assert.NotContains(t, headers.String(), secret, "answer %d", i)
			}
		}
	})
	t.Run("no stored item holds a token value, a client secret or a code", func(t *testing.T) {
		items := takeSnapshot(t, d.Table)
		for _, tok := range append(tokens, appSecrets...) {
			for key, item := range items {
				assert.NotContains(t, item, tok, readable(key))
				if strings.HasPrefix(tok, auth.Prefix) {
					assert.NotContains(t, item, tok[len(auth.Prefix):], readable(key))
				}
			}
		}
	})
	t.Run("no stored item holds a secret a user handed the API", func(t *testing.T) {
		items := takeSnapshot(t, d.Table)
		for _, us := range userSecrets {
			for key, item := range items {
				assert.NotContains(t, item, us, readable(key))
				assert.NotContains(t, item, base64.StdEncoding.EncodeToString([]byte(us)), readable(key))
			}
		}
	})
}

func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

func randomText(t *testing.T) string {
	b := make([]byte, 12)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}
