package contacts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// searchContacts are contacts written to be found, or not, in many ways:
// names in several cases and scripts, hyphens and apostrophes, accents,
// e-mail addresses and phones in several forms; then many ordinary ones.
func searchContacts(account string) []contactstore.Contact {
	start, _ := time.Parse(time.RFC3339, epoch)
	c := func(id, first, last, full, email, phone string) contactstore.Contact {
		return contactstore.Contact{ID: id, LocationID: account, FirstName: first, LastName: last, ContactName: full, Email: email, Phone: phone}
	}
	list := []contactstore.Contact{
		c("mj", "Mary-Jane", "O'Brien", "Mary-Jane O'Brien", "MJ.OBrien@Example.COM", "+1 (555) 010-0199"),
		c("jose1", "José", "Álvarez", "", "jose@correo.es", "+34 600 123 456"),
		c("jose2", "Jose", "Alvarez", "", "jalvarez@correo.es", "600123456"),
		c("elodie", "ÉLODIE", "Dupont", "Élodie Dupont", "", ""),
		c("john", "john", "SMITH", "", "john.smith@acme.io", "555-0100"),
		c("johnny", "Johnny", "Smithers", "", "jsmithers@acme.io", "+1 555 0101"),
		c("anneMarie", "Anne Marie", "van der Berg", "", "am@vdberg.nl", "+31 20 555 0102"),
		c("lukasz", "Łukasz", "Żółć", "", "lukasz@example.pl", ""),
		c("greek", "Σωκράτης", "Παππάς", "", "", "+30 21 0555 0103"),
		c("agent", "Agent", "007", "Agent 007", "bond@mi6.uk", "0044 20 7946 0007"),
		c("onlyEmail", "", "", "", "someone@nowhere.org", ""),
		c("onlyPhone", "", "", "", "", "(555) 010-9999"),
		c("nothing", "", "", "", "", ""),
	}
	firsts := []string{"Ann", "ANNA", "annabel", "Bob", "Zoë", "Jo", "Lee"}
	lasts := []string{"Lee", "Leeds", "Park", "smith", "Smithson", "Núñez", "Le Blanc"}
	phones := []string{"+1 (555) 010-%04d", "555.010.%04d", "+44 20 7946 %04d", ""}
	for i := 0; i < 110; i++ {
		first, last := firsts[i%len(firsts)], lasts[(i/len(firsts))%len(lasts)]
		phone := phones[i%len(phones)]
		if phone != "" {
			phone = fmt.Sprintf(phone, 1000+i)
		}
		list = append(list, c(fmt.Sprintf("gen%03d", i), first, last, first+" "+last,
			fmt.Sprintf("%s.%s%d@Mail.example", first, strings.ReplaceAll(last, " ", ""), i), phone))
	}
	for i := range list {
		// A few minutes apart, some at the same minute (ties go by id).
		list[i].DateAdded = start.Add(time.Duration(i/3) * time.Minute).Format(time.RFC3339)
	}
	return list
}

func seedList(t *testing.T, env *testenv.Env, list []contactstore.Contact) {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"contacts": list})
	require.NoError(t, err)
	env.Seed(t, contacts.Area, string(raw))
}

// bruteMatch is the documented search rule, applied to one contact.
func bruteMatch(c contactstore.Contact, query string) bool {
	var words []string
	for _, name := range []string{c.FirstName, c.LastName, c.ContactName} {
		for _, w := range strings.Fields(strings.ToLower(name)) {
			words = append(words, w)
			words = append(words, strings.FieldsFunc(w, func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
			})...)
		}
	}
	if email := strings.ToLower(strings.TrimSpace(c.Email)); email != "" {
		words = append(words, email)
	}
	phone := onlyDigits(c.Phone)
	if len(phone) > 15 {
		phone = phone[:15]
	}
	if phone != "" {
		words = append(words, phone)
	}
	matches := func(key string) bool {
		for _, w := range words {
			if strings.HasPrefix(w, key) {
				return true
			}
		}
		return phone != "" && strings.HasSuffix(phone, key)
	}
	// Consecutive words of digits and phone punctuation are one number.
	var keys []string
	number := ""
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if strings.Trim(w, "0123456789+-().") == "" && onlyDigits(w) != "" {
			number += onlyDigits(w)
			continue
		}
		if number != "" {
			keys, number = append(keys, number), ""
		}
		keys = append(keys, w)
	}
	if number != "" {
		keys = append(keys, number)
	}
	for _, k := range keys {
		if !matches(k) {
			return false
		}
	}
	return len(keys) > 0
}

func onlyDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// bruteSearch is the ids of the contacts matching query, in list order.
func bruteSearch(list []contactstore.Contact, query string) []string {
	sorted := append([]contactstore.Contact(nil), list...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].DateAdded != sorted[j].DateAdded {
			return sorted[i].DateAdded < sorted[j].DateAdded
		}
		return sorted[i].ID < sorted[j].ID
	})
	var ids []string
	for _, c := range sorted {
		if bruteMatch(c, query) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// walkSearch follows meta.nextPageUrl from the first page of a search to
// its last, checking each page's numbers, and returns the ids in the order
// served and the count every page answered.
func walkSearch(t *testing.T, env *testenv.Env, token, account, query string, limit int) ([]string, int) {
	t.Helper()
	path := "/contacts/?" + url.Values{"locationId": {account}, "query": {query}, "limit": {fmt.Sprint(limit)}}.Encode()
	var ids []string
	count := -1
	for page := 1; ; page++ {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: path, Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		var body listBody
		resp.JSON(t, &body)
		if count < 0 {
			count = body.Count
		}
		assert.Equal(t, count, body.Count, "every page answers the same count")
		assert.Equal(t, body.Count, body.Meta.Total)
		assert.Equal(t, page, body.Meta.CurrentPage)
		for _, c := range body.Contacts {
			ids = append(ids, c.ID)
		}
		if body.Meta.NextPageURL == nil {
			assert.LessOrEqual(t, len(body.Contacts), limit)
			return ids, count
		}
		assert.Len(t, body.Contacts, limit, "a page before the last is full")
		require.Less(t, page, 200, "the walk ends")
		path = *body.Meta.NextPageURL
	}
}

func TestSearchAnswersWhatTheRulesSay(t *testing.T) {
	env, token := newEnv(t)
	all := searchContacts(acctA)
	seedList(t, env, all)
	seedList(t, env, searchContacts(acctB)) // another account's contacts never appear

	cases := []struct {
		name, query string
		atLeast     int
	}{
		{"a first name in another case", "MARY", 1},
		{"the part of a hyphenated name after the hyphen", "jane", 1},
		{"a hyphenated name whole", "mary-jane", 1},
		{"the part of a name after an apostrophe", "brien", 1},
		{"a name with its apostrophe", "o'br", 1},
		{"an accented word does not match without its accent", "josé", 1},
		{"a word without accent does not match the accented name", "jose", 1},
		{"an upper-case accented name in lower case", "élodie", 1},
		{"a full name's word the first and last names do not have", "élodie dupont", 1},
		{"letters of other scripts, in another case", "σωκράτης", 1},
		{"a letter with a stroke, upper-cased", "ŁUKASZ", 1},
		{"the start of a word shared by many contacts", "ann", 20},
		{"one letter", "l", 20},
		{"two words in either order", "smith john", 1},
		{"two word starts", "ann le", 5},
		{"three words", "ann lee park", 0},
		{"a word of a two-word first name", "marie", 1},
		{"a word of a three-word last name", "der", 1},
		{"the start of an e-mail", "john.sm", 1},
		{"an e-mail whole, in another case", "MJ.OBRIEN@EXAMPLE.COM", 1},
		{"the part of an e-mail before the @", "jsmithers@", 1},
		{"the domain of an e-mail does not match", "acme.io", 0},
		{"a phone as typed, with spaces and punctuation", "+1 (555) 010-0199", 1},
		{"the end of a phone", "0199", 1},
		{"the end of phones many contacts share the start of", "010-1005", 1},
		{"the start of phones", "555", 10},
		{"the middle of a phone does not match", "5501", 0},
		{"a number in a name", "007", 1},
		{"a name word and a phone", "agent 0007", 1},
		{"a word of twelve characters", "john.smith@a", 1},
		{"a word longer than twelve characters", "annabel.smithson", 1},
		{"phone digits longer than twelve", "+34 600 123 456", 1},
		{"the end of a phone longer than twelve digits", "4420 7946 0007", 1},
		{"a word nobody has", "zebra", 0},
		{"a word and a word nobody has", "ann zebra", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := bruteSearch(all, tc.query)
			assert.GreaterOrEqual(t, len(want), tc.atLeast, "the case tests what it says")
			got, count := walkSearch(t, env, token, acctA, tc.query, 4)
			assert.Equal(t, want, got, "the matches, each once, in list order")
			assert.Equal(t, len(want), count)
		})
	}

	t.Run("a page asked for by its cursor alone is numbered by counting", func(t *testing.T) {
		want := bruteSearch(all, "ann")
		for _, at := range []int{3, 7, 11} {
			_, body := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"ann"}, "limit": {"4"}, "startAfterId": {want[at]}})
			require.NotEmpty(t, body.Contacts)
			assert.Equal(t, want[at+1], body.Contacts[0].ID)
			assert.Equal(t, (at+1+3)/4+1, body.Meta.CurrentPage, "after %d matches", at+1)
		}
	})
	t.Run("a query of spaces lists every contact", func(t *testing.T) {
		_, body := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"   "}})
		assert.Equal(t, len(all), body.Count)
	})
}

func TestSearchFollowsWritesAndDeletes(t *testing.T) {
	env, token := newEnv(t)
	all := searchContacts(acctA)
	seedList(t, env, all)
	store := contactstore.NewContacts(env.Table)
	ctx := context.Background()
	count := func(query string) int {
		_, n := walkSearch(t, env, token, acctA, query, 5)
		return n
	}
	anns, smiths := count("ann"), count("smith")

	t.Run("a new contact is found at once", func(t *testing.T) {
		now := env.Clock.Now()
		c := contactstore.Contact{ID: "newAnn", LocationID: acctA, FirstName: "Ann", LastName: "Quill", DateAdded: now.Format(time.RFC3339)}
		require.NoError(t, store.Put(ctx, c, now.UnixMilli()))
		ids, n := walkSearch(t, env, token, acctA, "ann", 5)
		assert.Equal(t, anns+1, n)
		assert.Equal(t, "newAnn", ids[len(ids)-1], "last in list order")
		assert.Equal(t, []string{"newAnn"}, first(walkSearch(t, env, token, acctA, "quill", 5)))
	})
	t.Run("a renamed contact is found by its new name only", func(t *testing.T) {
		now := env.Clock.Now()
		c := contactstore.Contact{ID: "newAnn", LocationID: acctA, FirstName: "Bea", LastName: "Smith", DateAdded: now.Format(time.RFC3339)}
		require.NoError(t, store.Put(ctx, c, now.UnixMilli()))
		assert.Equal(t, anns, count("ann"))
		assert.Equal(t, smiths+1, count("smith"))
		assert.Equal(t, 0, count("quill"))
	})
	t.Run("a deleted contact is no longer found, nor counted", func(t *testing.T) {
		victim := bruteSearch(all, "ann")[2]
		deleted, err := store.Delete(ctx, acctA, victim, env.Clock.Now())
		require.NoError(t, err)
		require.True(t, deleted)
		ids, n := walkSearch(t, env, token, acctA, "ann", 5)
		assert.Equal(t, anns-1, n)
		assert.NotContains(t, ids, victim)
		_, body := list(t, env, token, url.Values{"locationId": {acctA}})
		assert.Equal(t, len(all), body.Count, "the list's total: one added, one deleted")
	})
}

func first(ids []string, _ int) []string { return ids }

// The cost of a search page, counted at the DynamoDB client, at two
// account sizes: the same calls and round trips at both, within the bound.
func TestSearchCostsTheSameAtEveryAccountSize(t *testing.T) {
	type cost struct{ calls, rounds int }
	measure := func(t *testing.T, n int) map[string]cost {
		table := testenv.NewTable(t)
		counted, calls := testenv.CountingTable(t, table)
		env := testenv.New(t, []app.Area{contacts.Area}, testenv.WithTable(counted))
		env.Account(t, acctA, company)
		token, _ := env.Token(t, acctA)
		start, _ := time.Parse(time.RFC3339, epoch)
		load := make([]contactstore.NewContact, n)
		for i := range load {
			added := start.Add(time.Duration(i) * time.Minute)
			load[i] = contactstore.NewContact{AddedMs: added.UnixMilli(), Contact: contactstore.Contact{
				ID: fmt.Sprintf("c%05d", i), LocationID: acctA, FirstName: "First", LastName: fmt.Sprintf("Last%d", i),
				Email: fmt.Sprintf("c%d@example.com", i), DateAdded: added.Format(time.RFC3339)}}
		}
		require.NoError(t, contactstore.NewContacts(table).Load(context.Background(), load))
		env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?locationId=" + acctA, Token: token}) // the token is known
		calls.Hold(20 * time.Millisecond)

		out := map[string]cost{}
		for _, q := range []struct{ name, query string }{
			{"a word of every contact", "first"},
			{"a word of one contact", fmt.Sprintf("last%d", n/2)},
			{"a word prefix of a tenth of the contacts", "last1"},
			{"two words, one of one contact", fmt.Sprintf("first last%d", n/2)},
		} {
			path := "/contacts/?" + url.Values{"locationId": {acctA}, "query": {q.query}, "limit": {"20"}}.Encode()
			for page := 1; page <= 2 && path != ""; page++ {
				calls.TakeCalls()
				resp := env.Do(t, testenv.Request{Method: "GET", Path: path, Token: token})
				require.Equal(t, http.StatusOK, resp.Status)
				taken := calls.TakeCalls()
				out[fmt.Sprintf("%s, page %d", q.name, page)] = cost{len(taken), testenv.RoundTrips(taken)}
				var body listBody
				resp.JSON(t, &body)
				path = ""
				if body.Meta.NextPageURL != nil {
					path = *body.Meta.NextPageURL
				}
			}
		}
		return out
	}
	small, large := measure(t, 150), measure(t, 3000)
	assert.Equal(t, small, large, "the same calls at 150 and 3,000 contacts")
	for name, c := range large {
		assert.LessOrEqual(t, c.calls, 3, "%s: DynamoDB calls (admission, the counters, the index)", name)
		assert.LessOrEqual(t, c.rounds, 2, "%s: round trips", name)
	}
	assert.Len(t, large, 6, "first and second pages of the common and prefix words, first of the rare ones")
}
