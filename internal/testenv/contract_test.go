package testenv

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// limited are the headers of an answer to an authenticated request.
func limited() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Request-Id", "req-1")
	h.Set("X-RateLimit-Max", "100")
	h.Set("X-RateLimit-Remaining", "99")
	h.Set("X-RateLimit-Interval-Milliseconds", "10000")
	h.Set("X-RateLimit-Limit-Daily", "200000")
	h.Set("X-RateLimit-Daily-Remaining", "199999")
	return h
}

func requestHeaders() http.Header {
	h := http.Header{}
	h.Set("Version", "2021-07-28")
	h.Set("Accept", "application/json")
	h.Set("Content-Type", "application/json")
	h.Set("Authorization", "Bearer bpt_test")
	return h
}

const campaignsURL = "http://127.0.0.1:1/campaigns/?locationId=acct1"

func campaigns(status int, header http.Header, body string) exchange {
	return exchange{method: "GET", url: campaignsURL, reqHeader: requestHeaders(), status: status, respHeader: header, respBody: []byte(body)}
}

func TestTheContractCheckTellsMatchingExchangesFromMismatches(t *testing.T) {
	c, err := loadContract()
	require.NoError(t, err)
	noLimits := limited()
	noLimits.Del("X-RateLimit-Remaining")
	badParams := exchange{
		method: "PUT", url: "http://127.0.0.1:1/voice-ai/actions/act1", reqHeader: requestHeaders(),
		reqBody: []byte(`{"agentId":"agt1","locationId":"acct1","actionType":"SMS","name":"Text","actionParameters":{"triggerPrompt":"p","triggerMessage":"m","messageBody":"b"}}`),
		status:  200, respHeader: limited(),
		respBody: []byte(`{"id":"act1","actionType":"SMS","name":"Text","actionParameters":{"knowledgeBaseId":"kb1","triggerPrompt":"p"}}`),
	}

	for _, tc := range []struct {
		name    string
		x       exchange
		wantErr []string // parts of the error; none means the exchange matches
	}{
		{name: "a documented answer matches", x: campaigns(200, limited(), `{"campaigns":[{"id":"c1","name":"Spring","status":"draft","locationId":"acct1"}]}`)},
		{name: "the path without its trailing slash is the same operation", x: func() exchange {
			x := campaigns(200, limited(), `{"campaigns":[]}`)
			x.url = "http://127.0.0.1:1/campaigns?locationId=acct1"
			return x
		}()},
		{name: "a field of the wrong type is named with the operation", x: campaigns(200, limited(), `{"campaigns":[{"id":"c1","name":7,"status":"draft","locationId":"acct1"}]}`),
			wantErr: []string{"listCampaigns", "name"}},
		{name: "a field the document does not know is refused", x: campaigns(200, limited(), `{"campaigns":[],"extra":true}`),
			wantErr: []string{"listCampaigns", "extra"}},
		{name: "a status the operation does not list is refused", x: campaigns(409, limited(), `{"statusCode":409,"message":"x","error":"Conflict"}`),
			wantErr: []string{"listCampaigns", "409"}},
		{name: "a success without the rate-limit headers is refused", x: campaigns(200, noLimits, `{"campaigns":[]}`),
			wantErr: []string{"listCampaigns", "X-RateLimit-Remaining"}},
		{name: "an error body of another shape is refused", x: campaigns(422, limited(), `{"message":"bad"}`),
			wantErr: []string{"listCampaigns", "422"}},
		{name: "a request the document rejects, refused by the server, is consistent", x: func() exchange {
			x := campaigns(422, limited(), `{"statusCode":422,"message":["status must be one of: draft, published"],"error":"Unprocessable Entity","traceId":"req-1","requestId":"req-1"}`)
			x.url += "&status=archived"
			return x
		}()},
		{name: "a request the document rejects, accepted by the server, is refused", x: func() exchange {
			x := campaigns(200, limited(), `{"campaigns":[]}`)
			x.url += "&status=archived"
			return x
		}(), wantErr: []string{"listCampaigns", "accepted (200) a request the document rejects", "status"}},
		{name: "parameters that do not fit the action type are refused", x: badParams,
			wantErr: []string{"updateVoiceAction", "actionParameters"}},
		{name: "a test-only route may succeed", x: exchange{method: "GET", url: "http://127.0.0.1:1/ping", reqHeader: requestHeaders(), status: 200, respHeader: limited(), respBody: []byte(`{"account":"a"}`)}},
		{name: "an unknown route must answer in the error shape", x: exchange{method: "GET", url: "http://127.0.0.1:1/nowhere", reqHeader: requestHeaders(), status: 404, respHeader: limited(), respBody: []byte(`not found`)},
			wantErr: []string{"GET /nowhere", "not JSON"}},
		{name: "an unknown route's error in the error shape is consistent", x: exchange{method: "GET", url: "http://127.0.0.1:1/nowhere", reqHeader: requestHeaders(), status: 404, respHeader: limited(), respBody: []byte(`{"statusCode":404,"message":"No operation is served at GET /nowhere","error":"Not Found","traceId":"req-1","requestId":"req-1"}`)}},
		{name: "an error body without its traceId is refused", x: exchange{method: "GET", url: "http://127.0.0.1:1/nowhere", reqHeader: requestHeaders(), status: 404, respHeader: limited(), respBody: []byte(`{"statusCode":404,"message":"No operation is served at GET /nowhere","error":"Not Found"}`)},
			wantErr: []string{"GET /nowhere", "traceId"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.check(tc.x)
			if len(tc.wantErr) == 0 {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, part := range tc.wantErr {
				assert.Contains(t, err.Error(), part)
			}
		})
	}
}
