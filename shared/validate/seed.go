package validate

import (
	"errors"
	"time"
)

// Time fills a loaded record's timestamp left out with now (the time of the
// load, as the API writes times) and records a violation naming field when
// the one given is not an RFC 3339 time.
func (e *Errors) Time(field string, ts *string, now string) bool {
	if *ts == "" {
		*ts = now
		return true
	}
	_, err := time.Parse(time.RFC3339, *ts)
	return e.Check(err == nil, field+" must be an RFC 3339 time")
}

// ErrorOf is the error of a rule's message ("": none).
func ErrorOf(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}
