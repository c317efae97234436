package contacts_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
)

// churnContact is a contact of the concurrency test: stable ones (ids s*,
// and l0 with long names) are always there and always match "a"; churning
// ones (ids c*) come and go and match "b".
func churnContact(id, first, last string, addedSec int) (contactstore.Contact, int64) {
	start, _ := time.Parse(time.RFC3339, epoch)
	added := start.Add(time.Duration(addedSec) * time.Second)
	phone := "+1 555 0100 " + id[1:]
	if id[0] == 'c' {
		phone = "+1 555 0200 " + id[1:]
	}
	return contactstore.Contact{ID: id, LocationID: acctA, FirstName: first, LastName: last, ContactName: first + " " + last,
		Email: strings.ToLower(strings.ReplaceAll(first, " ", "")+"."+last) + "@mail.example", Phone: phone, DateAdded: added.Format(time.RFC3339),
		Tags: []string{}, CustomFields: []contactstore.CustomValue{}, Followers: []string{}}, added.UnixMilli()
}

// longNames are five twelve-letter words beginning with "a": renaming the
// contact from one seed to another changes some hundred keys, more than
// one transaction holds.
func longNames(seed string) string {
	var words []string
	for i := range 5 {
		words = append(words, fmt.Sprintf("a%c%s%s", 'a'+i, seed, "bcdefghij"))
	}
	return strings.Join(words, " ")
}

func TestSearchTotalsStayExactWhileContactsAreWritten(t *testing.T) {
	env, token := newEnv(t)
	store := contactstore.NewContacts(env.Table)
	ctx := context.Background()
	stableNames := []string{"Abe Lane", "Ada Long", "Amy Lark", "Ari Lux", "Ava Lind", "Axel Loft", "Al Lee", "Ann Lee-Long"}
	churnNames := []string{"Bea Moss", "Bob Mint", "Bo Marsh", "Bri Moor"}
	var stable, churn []string
	for i := range 8 {
		stable = append(stable, fmt.Sprintf("s%02d", i))
	}
	stable = append(stable, "l00")
	for i := range 6 {
		churn = append(churn, fmt.Sprintf("c%02d", i))
	}
	// A version of contact id: a name of its pool and a place among two in
	// the list order.
	version := func(id string, r *rand.Rand) (contactstore.Contact, int64) {
		i, _ := strconv.Atoi(id[1:])
		place := 10*i + r.IntN(2)
		switch id[0] {
		case 'l':
			return churnContact(id, longNames([]string{"k", "m", "q"}[r.IntN(3)]), "Alpha", place)
		case 's':
			first, last, _ := strings.Cut(stableNames[r.IntN(len(stableNames))], " ")
			return churnContact(id, first, last, place)
		}
		first, last, _ := strings.Cut(churnNames[r.IntN(len(churnNames))], " ")
		return churnContact(id, first, last, place)
	}
	// Every key any version can have, to look under afterwards.
	probe := map[string]bool{}
	for _, names := range [][]string{stableNames, churnNames, {longNames("k") + " Alpha", longNames("m") + " Alpha", longNames("q") + " Alpha"}} {
		for _, n := range names {
			for _, w := range strings.Fields(strings.ToLower(n)) {
				// Its first letters, where contacts share keys, and the
				// word (or its first twelve letters).
				for end := 1; end <= min(len(w), 3); end++ {
					probe[w[:end]] = true
				}
				probe[w[:min(len(w), 12)]] = true
			}
		}
	}
	for _, p := range []string{"1555", "15550100", "15550200", "0100", "0200"} {
		probe[p] = true
	}

	seed := rand.New(rand.NewPCG(1, 2))
	var initial []contactstore.Contact
	for _, id := range append(slices.Clone(stable), churn[:3]...) {
		c, _ := version(id, seed)
		initial = append(initial, c)
	}
	seedList(t, env, initial)

	// Writers: one per contact, and one more writing stable contacts at
	// random, so that some contacts have two writers at once. A write that
	// fails is sent again, as a client would.
	var writing sync.WaitGroup
	var writes atomic.Int32
	write := func(r *rand.Rand, id string, del bool) {
		for attempt := 1; ; attempt++ {
			var err error
			if del {
				_, err = store.Delete(ctx, acctA, id, time.Now())
			} else {
				c, ms := version(id, r)
				err = store.Put(ctx, c, ms)
			}
			if err == nil || attempt == 10 {
				assert.NoError(t, err, "write of %s", id)
				writes.Add(1)
				return
			}
		}
	}
	for n, id := range append(slices.Clone(stable), churn...) {
		writing.Go(func() {
			r := rand.New(rand.NewPCG(uint64(n), 7))
			for range 4 {
				write(r, id, id[0] == 'c' && r.IntN(3) == 0)
				// A pause lets the searches in: DynamoDB Local applies one
				// transaction at a time, and reads wait behind a queue of them.
				time.Sleep(time.Duration(r.IntN(40)) * time.Millisecond)
			}
		})
	}
	writing.Go(func() {
		r := rand.New(rand.NewPCG(99, 7))
		for range 6 {
			write(r, stable[r.IntN(len(stable))], false)
			time.Sleep(time.Duration(r.IntN(40)) * time.Millisecond)
		}
	})

	// Readers, until the writers are done: the totals a user sees.
	done := make(chan struct{})
	var reading sync.WaitGroup
	var searches atomic.Int32
	search := func(query string) ([]string, int) {
		q := url.Values{"locationId": {acctA}, "limit": {"20"}}
		if query != "" {
			q.Set("query", query)
		}
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?" + q.Encode(), Token: token})
		if !assert.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body) {
			return nil, 0
		}
		var body listBody
		resp.JSON(t, &body)
		var ids []string
		for _, c := range body.Contacts {
			assert.NotContains(t, ids, c.ID, "%q: a contact appears once on a page", query)
			ids = append(ids, c.ID)
		}
		searches.Add(1)
		return ids, body.Count
	}
	for _, check := range []func(){
		func() {
			ids, n := search("a")
			assert.Equal(t, len(stable), n, "every stable contact is counted once under a word they all have")
			assert.Subset(t, stable, ids)
		},
		func() {
			ids, n := search("a 1555")
			assert.Equal(t, len(stable), n, "two words every stable contact has count each once")
			assert.Subset(t, stable, ids)
		},
		func() {
			ids, n := search("b")
			assert.True(t, n >= 0 && n <= len(churn), "the churning contacts' count, %d, is between none and all", n)
			assert.Subset(t, churn, ids)
		},
		func() {
			_, n := search("")
			assert.True(t, n >= len(stable) && n <= len(stable)+len(churn), "the list's total, %d, counts each contact at most once", n)
		},
	} {
		reading.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
					check()
				}
			}
		})
	}
	writing.Wait()
	close(done)
	reading.Wait()
	t.Logf("%d writes while %d searches ran", writes.Load(), searches.Load())

	// Afterwards: under every key, the count, the items (the pages) and the
	// contacts stored agree, and each item shows its contact as stored.
	var stored []contactstore.Contact
	for _, id := range append(slices.Clone(stable), churn...) {
		c, err := store.Get(ctx, acctA, id)
		require.NoError(t, err)
		if c != nil {
			stored = append(stored, *c)
		}
	}
	_, n := search("")
	assert.Equal(t, len(stored), n, "the list's total")
	byID := map[string]contactstore.Contact{}
	for _, c := range stored {
		byID[c.ID] = c
	}
	for key := range probe {
		want := bruteSearch(stored, key)
		var got []string
		path := "/contacts/?" + url.Values{"locationId": {acctA}, "query": {key}, "limit": {"100"}}.Encode()
		for path != "" {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: path, Token: token})
			require.Equal(t, http.StatusOK, resp.Status)
			var body listBody
			resp.JSON(t, &body)
			assert.Equal(t, len(want), body.Count, "the count under %q", key)
			for _, c := range body.Contacts {
				got = append(got, c.ID)
				assert.Equal(t, byID[c.ID], c, "the item of %s under %q shows it as stored", c.ID, key)
			}
			path = ""
			if body.Meta.NextPageURL != nil {
				path = *body.Meta.NextPageURL
			}
		}
		assert.Equal(t, want, got, "the items under %q", key)
	}
}
