package validate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/validate"
)

func TestStoredTextsRefuseWhatIsInvisibleOrReordersTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string // "" when the text is fine on one line
		multiline  string // "" when the text is fine over lines
	}{
		{"a plain name", "CI deploy (staging)", "", ""},
		{"letters of any script and emoji", "Zoë's 日本語 ключ مفتاح 🔑", "", ""},
		{"a NUL", "CI\x00", "name must not contain a control character (U+0000 at character 3)", "name must not contain a control character (U+0000 at character 3)"},
		{"an escape that recolours a terminal", "\x1b[31mred", "name must not contain a control character (U+001B at character 1)", "name must not contain a control character (U+001B at character 1)"},
		{"a C1 control", "a\u0085b", "name must not contain a control character (U+0085 at character 2)", "name must not contain a control character (U+0085 at character 2)"},
		{"a right-to-left override", "invoice\u202Egpj.exe", "name must not contain a text-direction control (U+202E at character 8)", "name must not contain a text-direction control (U+202E at character 8)"},
		{"a right-to-left isolate", "a\u2067b", "name must not contain a text-direction control (U+2067 at character 2)", "name must not contain a text-direction control (U+2067 at character 2)"},
		{"a zero-width space", "ad\u200Bmin", "name must not contain a zero-width character (U+200B at character 3)", "name must not contain a zero-width character (U+200B at character 3)"},
		{"a byte-order mark", "\uFEFFname", "name must not contain a zero-width character (U+FEFF at character 1)", "name must not contain a zero-width character (U+FEFF at character 1)"},
		{"invalid UTF-8", "caf\xe9", "name is not valid UTF-8 text", "name is not valid UTF-8 text"},
		{"a line break and a tab", "first line\n\tsecond", "name must not contain a control character (U+000A at character 11)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, validate.TextProblem("name", tc.text))
			assert.Equal(t, tc.multiline, validate.MultilineTextProblem("name", tc.text))
		})
	}
}
