package contactstore

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestTermsOfAContact(t *testing.T) {
	cases := []struct {
		name    string
		contact Contact
		want    searchTerms
	}{
		{
			"names are lower-cased and split at spaces, a hyphenated or apostrophed word also into its parts",
			Contact{FirstName: "Mary-Jane", LastName: "O'Brien", ContactName: "Mary-Jane O'Brien"},
			searchTerms{Words: []string{"mary-jane", "mary", "jane", "o'brien", "o", "brien"}},
		},
		{
			"accents are kept, upper-case accented letters lower-cased",
			Contact{FirstName: "ÉLODIE", LastName: "Núñez"},
			searchTerms{Words: []string{"élodie", "núñez"}},
		},
		{
			"the e-mail is one word, lower-cased; the phone is its digits",
			Contact{FirstName: "Ann", Email: " Ann.Lee@Example.COM ", Phone: "+1 (555) 010-0199"},
			searchTerms{Words: []string{"ann", "ann.lee@example.com", "15550100199"}, Phone: "15550100199"},
		},
		{
			"a phone keeps its first 15 digits",
			Contact{Phone: "+44 20 7946 0958 ext. 12345"},
			searchTerms{Words: []string{"442079460958123"}, Phone: "442079460958123"},
		},
		{
			"a contact without names, e-mail or phone has no terms",
			Contact{ID: "x"},
			searchTerms{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, termsOf(tc.contact))
		})
	}
	t.Run("at most twelve name words are kept", func(t *testing.T) {
		var words []string
		for i := range 20 {
			words = append(words, fmt.Sprintf("w%02d", i))
		}
		got := termsOf(Contact{FirstName: strings.Join(words, " "), Email: "e@x.io"})
		assert.Equal(t, append(words[:maxNameWords:maxNameWords], "e@x.io"), got.Words)
	})
}

func TestQueryKeys(t *testing.T) {
	cases := []struct {
		name, query string
		want        []string
	}{
		{"words are lower-cased and split at spaces", "  John   SMITH ", []string{"john", "smith"}},
		{"a phone typed with punctuation and spaces is one key of digits", "+1 (555) 010-0199", []string{"15550100199"}},
		{"phone words around a name word are two numbers", "555 ann 0199", []string{"555", "ann", "0199"}},
		{"a word with letters and digits stays a word", "agent007", []string{"agent007"}},
		{"punctuation alone is a word", "- x", []string{"-", "x"}},
		{"a repeated word counts once", "ann ANN", []string{"ann"}},
		{"an e-mail stays whole", "Ann.Lee@Example.com", []string{"ann.lee@example.com"}},
		{"nothing but spaces is no key", "   ", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, queryKeys(tc.query))
		})
	}
}

func TestIndexKeys(t *testing.T) {
	t.Run("every prefix of every word and every ending of the phone, once", func(t *testing.T) {
		got := searchTerms{Words: []string{"ann", "anna", "5551"}, Phone: "5551"}.indexKeys()
		assert.ElementsMatch(t, []string{"a", "an", "ann", "anna", "5", "55", "555", "5551", "551", "51", "1"}, got)
	})
	t.Run("prefixes stop at twelve characters, counted in characters not bytes", func(t *testing.T) {
		word := strings.Repeat("é", 20)
		got := searchTerms{Words: []string{word}}.indexKeys()
		assert.Len(t, got, maxKeyLen)
		for _, k := range got {
			assert.True(t, utf8.ValidString(k))
			assert.LessOrEqual(t, utf8.RuneCountInString(k), maxKeyLen)
		}
	})
	t.Run("a contact with the most terms stays within the bound", func(t *testing.T) {
		var words []string
		for i := range 30 {
			words = append(words, fmt.Sprintf("%c%s", 'a'+i%26, strings.Repeat(fmt.Sprint(i%10), 20)))
		}
		c := Contact{FirstName: strings.Join(words, " "), Email: strings.Repeat("m", 40) + "@x.io", Phone: "123456789012345678"}
		for i := range MaxTags + 5 {
			c.Tags = append(c.Tags, fmt.Sprintf("tag %d", i))
		}
		got := keysOf(Record{Contact: c, Details: Details{DND: true}})
		assert.LessOrEqual(t, len(got), maxIndexKeys)
		assert.Greater(t, len(got), maxIndexKeys-maxKeyLen, "the bound is close to what such a contact has")
	})
	t.Run("a key shorter than twelve characters is exact: its items are exactly the contacts it matches", func(t *testing.T) {
		terms := termsOf(Contact{FirstName: "Bartholomew", LastName: "Fitzgerald-Smythe", Phone: "+44 20 7946 0958 123"})
		keys := terms.indexKeys()
		for _, k := range keys {
			if exactKey(k) {
				assert.True(t, terms.matches(k), "an exact key %q the contact is indexed under matches it", k)
			}
		}
		for _, q := range []string{"bart", "fitzgerald-s", "smythe", "4420", "0958123", "958123"} {
			k := queryKeys(q)[0]
			assert.True(t, terms.matches(k), q)
			assert.Contains(t, keys, indexKey(k), "the contact is under the key of %q", q)
		}
	})
	t.Run("a twelve-character key is not exact: a longer phone ending shares it", func(t *testing.T) {
		terms := termsOf(Contact{Phone: "442079460958123"}) // the ending 2079460958123 is cut to 207946095812
		assert.Contains(t, terms.indexKeys(), "207946095812")
		assert.False(t, terms.matches("207946095812"))
		assert.False(t, exactKey("207946095812"))
	})
}

func TestMatches(t *testing.T) {
	terms := termsOf(Contact{FirstName: "Ann", LastName: "Lee-Park", Email: "ann.lee@example.com", Phone: "+1 555 010 0199"})
	cases := []struct {
		query string
		want  bool
	}{
		{"ann", true},
		{"ANN LEE", true},
		{"park", true},
		{"lee-p", true},
		{"ann.lee@", true},
		{"example", false},
		{"+1 555", true},
		{"0199", true},
		{"010", false},
		{"ann zed", false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q matches: %v", tc.query, tc.want), func(t *testing.T) {
			assert.Equal(t, tc.want, terms.matchesAll(queryKeys(tc.query)))
		})
	}
}
