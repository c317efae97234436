package contactstore

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a search matches (docs/search.md): lower-cased (accents are kept),
// a contact matches a query when every word of the query begins one of the
// contact's words (first name, last name and full name, each split at
// spaces, and the parts of a word between punctuation: "mary-jane" is
// found by "mary-jane", "mary" and "jane"), begins its e-mail address, or
// begins or ends its phone digits. A query word made only of digits and
// phone punctuation is compared by its digits, and consecutive such words
// are one phone number ("+1 (555) 010-0199" is the digits 15550100199).
const (
	// maxKeyLen is the longest key (in characters) of the search index: a
	// contact is indexed under every prefix of its words up to this length.
	// A longer query word is looked up under its first maxKeyLen characters
	// and checked against the words stored on each index item.
	maxKeyLen = 12
	// maxNameWords caps the name words (and word parts) a contact is found
	// by, which bounds its index items (see maxIndexKeys).
	maxNameWords = 12
	// maxPhoneDigits is the longest phone number (E.164): the phone's first
	// maxPhoneDigits digits are its digits.
	maxPhoneDigits = 15
	// MaxTags bounds a contact's tags, each of which is a key of its own.
	MaxTags = 50
	// maxIndexKeys bounds the index items of one contact: the prefixes of
	// its name words, e-mail and phone digits, the phone's endings, its
	// tags and its do-not-disturb flag.
	maxIndexKeys = (maxNameWords+2)*maxKeyLen + maxPhoneDigits + MaxTags + 1
)

// Field keys index a contact by a stored value rather than by the words it
// is found by: each of its tags, and its do-not-disturb flag. They begin
// with a space, which no word key does (words are split at spaces, the
// e-mail is trimmed, a phone is digits), so the two never meet, and a
// query word never names one.
const (
	tagKeyPrefix = " tag:"
	dndKey       = " dnd"
)

// TagKey is the key of the contacts having tag (compared lower-cased).
func TagKey(tag string) string { return tagKeyPrefix + strings.ToLower(tag) }

// fieldKeys are the field keys of r.
func fieldKeys(r Record) []string {
	var keys []string
	for _, t := range r.Tags {
		if k := TagKey(t); !slices.Contains(keys, k) && len(keys) < MaxTags {
			keys = append(keys, k)
		}
	}
	if r.DND {
		keys = append(keys, dndKey)
	}
	return keys
}

// keysOf are all the keys r is indexed under: its word keys and its field
// keys.
func keysOf(r Record) []string {
	return append(termsOf(r.Contact).indexKeys(), fieldKeys(r)...)
}

// phonePunctuation may appear in a query word that is a phone number.
const phonePunctuation = "+-()."

// searchTerms are what a contact is found by.
type searchTerms struct {
	// Words are matched by their beginning: the name words and word parts,
	// the e-mail address, the phone digits.
	Words []string
	// Phone is the phone digits, also matched by their end.
	Phone string
}

// termsOf returns the terms of a contact.
func termsOf(c Contact) searchTerms {
	var t searchTerms
	seen := map[string]bool{}
	add := func(w string) {
		if w != "" && !seen[w] && len(t.Words) < maxNameWords {
			seen[w] = true
			t.Words = append(t.Words, w)
		}
	}
	for _, name := range []string{c.FirstName, c.LastName, c.ContactName} {
		for _, word := range strings.Fields(strings.ToLower(name)) {
			add(word)
			for _, part := range strings.FieldsFunc(word, isWordSeparator) {
				add(part)
			}
		}
	}
	if email := strings.ToLower(strings.TrimSpace(c.Email)); email != "" && !seen[email] {
		t.Words = append(t.Words, email)
	}
	t.Phone = digits(c.Phone, maxPhoneDigits)
	if t.Phone != "" && !slices.Contains(t.Words, t.Phone) {
		t.Words = append(t.Words, t.Phone)
	}
	return t
}

// isWordSeparator reports whether r separates the parts of a name word.
func isWordSeparator(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
}

// digits returns the ASCII digits of s, at most max of them (max <= 0: all).
func digits(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			if max > 0 && b.Len() == max {
				break
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// matches reports whether the contact with these terms matches the query
// word key (as queryKeys returns it).
func (t searchTerms) matches(key string) bool {
	for _, w := range t.Words {
		if strings.HasPrefix(w, key) {
			return true
		}
	}
	return t.Phone != "" && strings.HasSuffix(t.Phone, key)
}

// matchesAll reports whether the terms match every key.
func (t searchTerms) matchesAll(keys []string) bool {
	for _, k := range keys {
		if !t.matches(k) {
			return false
		}
	}
	return true
}

// indexKeys are the keys the contact is indexed under: every prefix of its
// words up to maxKeyLen characters, and every ending of its phone digits
// (cut to maxKeyLen). At most maxIndexKeys.
func (t searchTerms) indexKeys() []string {
	seen := map[string]bool{}
	var keys []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, w := range t.Words {
		n := 0
		for i := range w {
			if i > 0 {
				add(w[:i])
			}
			if n++; n > maxKeyLen {
				break
			}
		}
		if n <= maxKeyLen {
			add(w)
		}
	}
	for i := range t.Phone {
		add(indexKey(t.Phone[i:]))
	}
	return keys
}

// indexKey is the key under which matches of the query word key are
// indexed: the key itself, or its first maxKeyLen characters.
func indexKey(key string) string {
	n := 0
	for i := range key {
		if n == maxKeyLen {
			return key[:i]
		}
		n++
	}
	return key
}

// exactKey reports whether the index items under key are exactly the
// contacts matching key, with no check: a key of maxKeyLen characters or
// more also finds contacts whose longer words or phone endings only share
// its first maxKeyLen characters.
func exactKey(key string) bool { return utf8.RuneCountInString(key) < maxKeyLen }

// queryKeys splits a query into the keys a match must all have: its words,
// lower-cased, with each run of phone-number words as one key of digits.
// Repeated keys count once.
func queryKeys(query string) []string {
	var keys []string
	add := func(k string) {
		if k != "" && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	phone := ""
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if isPhoneWord(w) {
			phone += digits(w, 0)
			continue
		}
		add(phone)
		phone = ""
		add(w)
	}
	add(phone)
	return keys
}

// isPhoneWord reports whether a query word is (part of) a phone number:
// digits and phone punctuation, with at least one digit.
func isPhoneWord(w string) bool {
	hasDigit := false
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			hasDigit = true
		case !strings.ContainsRune(phonePunctuation, r):
			return false
		}
	}
	return hasDigit
}
