package apicheck_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/apicheck"
)

func TestAnAnswerPassesOnlyAsAClientWouldTakeIt(t *testing.T) {
	const apiError = `{"statusCode":401,"message":"Missing bearer token","error":"Unauthorized"}`
	for _, tc := range []struct {
		name   string
		answer apicheck.Answer
		check  func(apicheck.Answer) error
		ok     bool
	}{
		{"a 200 with JSON", apicheck.Answer{200, "application/json; charset=utf-8", []byte(`{"contacts":[]}`)}, func(a apicheck.Answer) error { return a.Wants(200, "application/json") }, true},
		{"a 200 whose body is not JSON", apicheck.Answer{200, "application/json", []byte(`<html>`)}, func(a apicheck.Answer) error { return a.Wants(200, "application/json") }, false},
		{"another status", apicheck.Answer{500, "application/json", []byte(`{}`)}, func(a apicheck.Answer) error { return a.Wants(200, "application/json") }, false},
		{"another media type", apicheck.Answer{200, "text/html", []byte(`x`)}, func(a apicheck.Answer) error { return a.Wants(200, "application/json") }, false},
		{"the API's 401", apicheck.Answer{401, "application/json", []byte(apiError)}, func(a apicheck.Answer) error { return a.WantsError(401) }, true},
		{"a 401 without the API's body", apicheck.Answer{401, "text/plain", []byte(`Unauthorized`)}, func(a apicheck.Answer) error { return a.WantsError(401) }, false},
		{"a 401 whose body says another status", apicheck.Answer{401, "application/json", []byte(`{"statusCode":403,"message":"m","error":"e"}`)}, func(a apicheck.Answer) error { return a.WantsError(401) }, false},
		{"a 401 whose body has no message", apicheck.Answer{401, "application/json", []byte(`{"statusCode":401,"error":"e"}`)}, func(a apicheck.Answer) error { return a.WantsError(401) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check(tc.answer)
			assert.Equal(t, tc.ok, err == nil, "%v", err)
		})
	}
}
