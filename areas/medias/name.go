package medias

import (
	"fmt"
	"strings"
	"unicode"
)

// maxNameLen bounds a file or folder name (in characters), as file systems do.
const maxNameLen = 255

// nameProblem returns why name (already trimmed) cannot name a file or
// folder, or "". A name is one path segment: it holds no separator, no
// control character, and is not "." or "..", so the paths built from names
// stay unambiguous.
func nameProblem(field, name string) string {
	switch {
	case name == "":
		return field + " is required"
	case len([]rune(name)) > maxNameLen:
		return fmt.Sprintf("%s must be at most %d characters long", field, maxNameLen)
	case strings.ContainsAny(name, `/\`):
		return field + ` must not contain '/' or '\'`
	case strings.ContainsFunc(name, unicode.IsControl):
		return field + " must not contain control characters"
	case name == "." || name == "..":
		return field + ` must not be "." or ".."`
	default:
		return ""
	}
}
