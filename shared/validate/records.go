package validate

import (
	"fmt"
	"strings"
	"time"
)

// Rules of stored records that data loaded in bulk (the demo dataset) must
// follow, as the API's own writes do.

// LowerHexIDProblem returns why v is not a stored 24-character hexadecimal
// id, or "". Stored ids are lower case: requests are normalised to it.
func LowerHexIDProblem(field, v string) string {
	if !IsHexID(v) || strings.ToLower(v) != v {
		return field + " must be a lower-case 24-character hexadecimal id"
	}
	return ""
}

// Stamp fills each empty timestamp with now and checks that the others are
// RFC 3339 timestamps.
func Stamp(now string, timestamps ...*string) error {
	for _, ts := range timestamps {
		if *ts == "" {
			*ts = now
		} else if _, err := time.Parse(time.RFC3339, *ts); err != nil {
			return fmt.Errorf("timestamp %q is not RFC 3339", *ts)
		}
	}
	return nil
}

// NamedRecord records the violations of what every named record of an
// account has: a well-formed id and account id, and a name that is not
// blank. kind names the record ("campaign id must be an id ...").
func NamedRecord(v *Errors, kind, id, accountID, name string) {
	v.ID(kind+" id", id)
	v.ID("locationId", accountID)
	v.Check(strings.TrimSpace(name) != "", "name is required")
}
