package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The draws Python 3 makes from random.Random(20261121): random(),
// randint(30, 2880), uniform(0.8, 1.2), choice(range(18)),
// sample(range(6), 2), sample(range(12), 9), in that order.
func TestTheGeneratorDrawsWhatPythonsRandomDraws(t *testing.T) {
	r := newPyRand(20261121)
	assert.Equal(t, 0.938599582961178, r.random())
	assert.Equal(t, 745, r.intn(30, 2880))
	assert.Equal(t, 0.9123695503131448, r.uniform(0.8, 1.2))
	assert.Equal(t, 2, choose(r, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}))
	assert.Equal(t, []int{2, 0}, sample(r, []int{0, 1, 2, 3, 4, 5}, 2))
	assert.Equal(t, []int{0, 2, 10, 5, 8, 1, 6, 4, 9}, sample(r, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 9))
}

func TestFloatsAreWrittenAsPythonWritesThem(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{49, "49.0"}, {19.5, "19.5"}, {5.99, "5.99"}, {0, "0.0"}, {-2.5, "-2.5"},
		{1e16, "1e+16"}, {123456789012345.6, "123456789012345.6"}, {0.0001, "0.0001"}, {0.00001, "1e-05"}, {1.5e-7, "1.5e-07"},
	} {
		got, err := pyFloat(c.in).MarshalJSON()
		assert.NoError(t, err)
		assert.Equal(t, c.want, string(got), "%v", c.in)
	}
}

func TestStringsAreEscapedAsPythonEscapesThem(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		ascii bool
		want  string
	}{
		{"quotes and backslashes", `a"b\c`, true, `"a\"b\\c"`},
		{"control characters", "a\nb\x01", true, `"a\nb\u0001"`},
		{"HTML characters stay", "<a&b>", true, `"<a&b>"`},
		{"non-ASCII escaped under ensure_ascii", "café 😀", true, `"caf\u00e9 \ud83d\ude00"`},
		{"non-ASCII kept otherwise", "café", false, `"café"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			writeString(&b, c.in, c.ascii)
			assert.Equal(t, c.want, b.String())
		})
	}
}
