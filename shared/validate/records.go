package validate

import "strings"

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

// NamedRecord records the violations of what every named record of an
// account has: a well-formed id and account id (locationId), and a name that
// is not blank.
func NamedRecord(v *Errors, id, accountID, name string) {
	v.ID("id", id)
	v.ID("locationId", accountID)
	v.Check(strings.TrimSpace(name) != "", "name is required")
}
