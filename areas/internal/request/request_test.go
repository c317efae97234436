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
	"github.com/bizplatform/api/shared/validate"
)

// The token of every request below acts on account acct1 of company co1.
const (
	ownAccount = "acct1"
	ownCompany = "co1"
	hexID      = "a10200000000000000000201"
)

// part is the body of PUT /things/{thingId}/parts/{partId}, an operation
// made up for these tests: a plain id and a hexadecimal id in its path, one
// required field and the account in its body.
type part struct {
	LocationID *string `json:"locationId"`
	Name       *string `json:"name"`
}

func (b *part) check(v *validate.Errors) {
	v.Required("name", b.Name)
	if b.LocationID != nil {
		v.ID("locationId", *b.LocationID)
	}
}

// readPart reads the request as its handler would.
func readPart(r *http.Request) (thingID, partID string, p *auth.Principal, err error) {
	in := request.NewReader(r)
	thingID, partID = in.ID("thingId"), in.HexID("partId")
	var body part
	in.Body(&body, body.check)
	p, err = in.Account(body.LocationID)
	return thingID, partID, p, err
}

// withToken gives r the principal of a token of ownAccount.
func withToken(r *http.Request) *http.Request {
	return r.WithContext(auth.WithPrincipal(r.Context(), &auth.Principal{AccountID: ownAccount, CompanyID: ownCompany}))
}

func putPart(thingID, partID, body string) *http.Request {
	r := httptest.NewRequest("PUT", "/things/x/parts/y", strings.NewReader(body))
	r.SetPathValue("thingId", thingID)
	r.SetPathValue("partId", partID)
	return withToken(r)
}

// requireAnswer checks that err is the answer code, and for broken rules
// that it names exactly violations, in order.
func requireAnswer(t *testing.T, err error, code apierror.Code, violations ...string) *apierror.Error {
	t.Helper()
	e, ok := apierror.As(err)
	require.True(t, ok, "not an API error: %v", err)
	require.Equal(t, code, e.Code, "%v", err)
	if code == apierror.CodeValidation {
		assert.Equal(t, violations, e.Violations)
	}
	return e
}

func TestTheReaderAnswersInTheOrderOfChecks(t *testing.T) {
	badThing := "thing#1"
	cases := []struct {
		name            string
		thingID, partID string
		body            string
		code            apierror.Code
		violations      []string
	}{
		{"bad path ids are named with the body's broken rules, path first", badThing, "zz", `{"locationId":"acct1"}`, apierror.CodeValidation,
			[]string{"thingId must be an id of 1 to 64 letters, digits, '_' or '-'", "partId must be a 24-character hexadecimal id", "name is required"}},
		{"a bad path id is named with a property the body must not have", badThing, hexID, `{"name":"n","colour":"red"}`, apierror.CodeValidation,
			[]string{"thingId must be an id of 1 to 64 letters, digits, '_' or '-'", "property colour should not exist"}},
		{"a body of the wrong shape is not judged by its rules as well", "thing1", hexID, `{"name":7}`, apierror.CodeValidation,
			[]string{"name must be a string"}},
		{"a body that is not JSON is a bad request before any broken rule", badThing, "zz", `{"name":`, apierror.CodeBadRequest, nil},
		{"a body that is not an object is a bad request before any broken rule", badThing, "zz", `["name"]`, apierror.CodeBadRequest, nil},
		{"a missing body is a bad request before any broken rule", badThing, "zz", ``, apierror.CodeBadRequest, nil},
		{"a broken rule is answered before another account is refused", "thing1", hexID, `{"locationId":"acct2"}`, apierror.CodeValidation,
			[]string{"name is required"}},
		{"a bad path id is answered before another account is refused", badThing, hexID, `{"locationId":"acct2","name":"n"}`, apierror.CodeValidation,
			[]string{"thingId must be an id of 1 to 64 letters, digits, '_' or '-'"}},
		{"a request that breaks no rule and names another account is refused access", "thing1", hexID, `{"locationId":"acct2","name":"n"}`, apierror.CodeForbidden, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := readPart(putPart(c.thingID, c.partID, c.body))
			e := requireAnswer(t, err, c.code, c.violations...)
			if c.code == apierror.CodeBadRequest {
				assert.NotContains(t, e.Message, "thingId", "a request that cannot be read is not judged by its rules")
			}
		})
	}
}

func TestTheReaderGivesTheValuesOfARequestThatPasses(t *testing.T) {
	t.Run("path ids come back, a hexadecimal one in lower case, with the token's principal", func(t *testing.T) {
		thingID, partID, p, err := readPart(putPart("thing_1", strings.ToUpper(hexID), `{"locationId":"acct1","name":"n"}`))
		require.NoError(t, err)
		assert.Equal(t, "thing_1", thingID)
		assert.Equal(t, hexID, partID)
		assert.Equal(t, ownAccount, p.AccountID)
	})
	t.Run("a request that may name no account and names none acts on the token's", func(t *testing.T) {
		_, _, p, err := readPart(putPart("thing1", hexID, `{"name":"n"}`))
		require.NoError(t, err)
		assert.Equal(t, ownAccount, p.AccountID)
	})
	t.Run("a bad path id comes back empty, never as sent", func(t *testing.T) {
		thingID, partID, _, err := readPart(putPart("a/b", "zz", `{"name":"n"}`))
		require.Error(t, err)
		assert.Empty(t, thingID)
		assert.Empty(t, partID)
	})
}

func TestABodyOverTheSizeLimitIsAnsweredFirst(t *testing.T) {
	r := putPart("thing#1", hexID, `{"name":"a long name"}`)
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 4)
	_, _, _, err := readPart(r)
	requireAnswer(t, err, apierror.CodePayloadTooLarge)
}

// listParts reads GET /parts?locationId=...&limit=... as its handler would.
func listParts(rawQuery string) (int, *auth.Principal, error) {
	r := withToken(httptest.NewRequest("GET", "/parts?"+rawQuery, nil))
	r.SetPathValue("thingId", "thing1")
	in := request.NewReader(r)
	in.ID("thingId")
	q := in.Query()
	account := q.RequiredID("locationId")
	limit := q.Int("limit", 20, 1, 100)
	if q.Has("type") {
		in.Errors().OneOf("type", q.String("type"), "a", "b")
	}
	p, err := in.Account(&account)
	return limit, p, err
}

func TestAQueryIsReadInTheSameOrder(t *testing.T) {
	cases := []struct {
		name       string
		query      string
		code       apierror.Code
		violations []string
	}{
		{"every broken rule of the query is named in one answer", "locationId=acct1&limit=0&type=c", apierror.CodeValidation,
			[]string{"limit must be between 1 and 100", "type must be one of: a, b"}},
		{"a query string that cannot be read is a bad request before any broken rule", "locationId=acct1&limit=0&limit=1", apierror.CodeBadRequest, nil},
		{"a broken rule is answered before another account is refused", "locationId=acct2&limit=x", apierror.CodeValidation,
			[]string{"limit must be an integer"}},
		{"a missing account is a broken rule, not the token's account", "limit=5", apierror.CodeValidation,
			[]string{"locationId is required"}},
		{"a query that breaks no rule and names another account is refused access", "locationId=acct2", apierror.CodeForbidden, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := listParts(c.query)
			requireAnswer(t, err, c.code, c.violations...)
		})
	}
	t.Run("a query that breaks no rule gives its values and the token's principal", func(t *testing.T) {
		limit, p, err := listParts("locationId=acct1&limit=5")
		require.NoError(t, err)
		assert.Equal(t, 5, limit)
		assert.Equal(t, ownAccount, p.AccountID)
	})
}

func TestTheLastStepNamesWhatTheRequestActsOn(t *testing.T) {
	tokenAccount := func(in *request.Reader) (*auth.Principal, error) { return in.TokenAccount() }
	company := func(id string) func(in *request.Reader) (*auth.Principal, error) {
		return func(in *request.Reader) (*auth.Principal, error) { return in.Company(&id) }
	}
	cases := []struct {
		name   string
		pathID string
		last   func(in *request.Reader) (*auth.Principal, error)
		passes bool
		code   apierror.Code // when it does not pass
	}{
		{"a request naming no account acts on the token's", "t1", tokenAccount, true, 0},
		{"a request naming no account still answers a bad path id first", "t#1", tokenAccount, false, apierror.CodeValidation},
		{"a request naming the token's company passes", "t1", company(ownCompany), true, 0},
		{"a request naming another company is refused access", "t1", company("co2"), false, apierror.CodeForbidden},
		{"a request naming another company answers a bad path id first", "t#1", company("co2"), false, apierror.CodeValidation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := withToken(httptest.NewRequest("DELETE", "/things/x", nil))
			r.SetPathValue("thingId", c.pathID)
			in := request.NewReader(r)
			in.ID("thingId")
			p, err := c.last(in)
			if !c.passes {
				requireAnswer(t, err, c.code, "thingId must be an id of 1 to 64 letters, digits, '_' or '-'")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, ownAccount, p.AccountID)
		})
	}
}
