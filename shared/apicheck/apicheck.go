// Package apicheck judges an answer of the deployed API the way a client
// would: its status, its media type, and for an error the API's JSON error
// body. The deploy hook judges a new version's answers with it, and the
// synthetic probe the public URL's.
package apicheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Answer is an answer as a client sees it.
type Answer struct {
	Status      int
	ContentType string
	Body        []byte
}

// Wants checks the status and a body of the media type (valid JSON when
// the type is application/json).
func (a Answer) Wants(status int, mediaType string) error {
	if a.Status != status {
		return fmt.Errorf("answered %d, want %d: %.300s", a.Status, status, a.Body)
	}
	if !strings.HasPrefix(a.ContentType, mediaType) {
		return fmt.Errorf("answered %q, want %s", a.ContentType, mediaType)
	}
	if mediaType == "application/json" && !json.Valid(a.Body) {
		return fmt.Errorf("the body is not JSON: %.300s", a.Body)
	}
	return nil
}

// WantsError checks the status with the API's JSON error body: its
// statusCode, message and error.
func (a Answer) WantsError(status int) error {
	if err := a.Wants(status, "application/json"); err != nil {
		return err
	}
	var body struct {
		StatusCode int    `json:"statusCode"`
		Message    string `json:"message"`
		Error      string `json:"error"`
	}
	if err := json.Unmarshal(a.Body, &body); err != nil {
		return fmt.Errorf("the body is not the API's error: %.300s", a.Body)
	}
	if body.StatusCode != status || body.Message == "" || body.Error == "" {
		return errors.New("the error body lacks its statusCode, message or error: " + string(a.Body))
	}
	return nil
}
