package ids

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIDsHaveTheirFormatAndDoNotRepeat(t *testing.T) {
	hex24 := regexp.MustCompile(`^[0-9a-f]{24}$`)
	alnum20 := regexp.MustCompile(`^[0-9A-Za-z]{20}$`)
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		h, a := Hex24(), Alnum20()
		assert.Regexp(t, hex24, h)
		assert.Regexp(t, alnum20, a)
		assert.False(t, seen[h] || seen[a], "repeated id")
		seen[h], seen[a] = true, true
	}
}
