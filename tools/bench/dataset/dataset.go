// Package dataset is `bench dataset`: the contacts list and its search, a
// page at a time, against accounts of growing size.
package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/tools/bench/kit"
)

// Figure is list latency for one dataset shape.
type Figure struct {
	Accounts        int     `json:"accounts"`
	ContactsPerAcct int     `json:"contactsPerAccount"`
	FirstPageP50Ms  float64 `json:"firstPageP50Ms"`
	MiddlePageP50Ms float64 `json:"middlePageP50Ms"`
	FirstPageCalls  int     `json:"firstPageCalls"`
	MiddlePageCalls int     `json:"middlePageCalls"`
	FirstPageRounds int     `json:"firstPageRounds"`
	// RawQueryP50Ms is the engine alone: one Query of 21 items of the
	// account's list index, as the first page makes.
	RawQueryP50Ms    float64 `json:"rawQueryP50Ms"`
	MiddlePageRounds int     `json:"middlePageRounds"`
	// Read units of a warm request's calls (the rate counter's write is 1
	// write unit on every request and not shown).
	FirstPageRCU  float64 `json:"firstPageRcu"`
	MiddlePageRCU float64 `json:"middlePageRcu"`
	// Searches are the same pages with the query parameter (one account).
	Searches []SearchFigure `json:"searches,omitempty"`
}

// SearchFigure is one search's first page and its second page (requested as
// meta.nextPageUrl gives it), in an account of the dataset.
type SearchFigure struct {
	Query            string  `json:"query"`
	What             string  `json:"what"`
	Matches          int     `json:"matches"`
	FirstPageP50Ms   float64 `json:"firstPageP50Ms"`
	FirstPageCalls   int     `json:"firstPageCalls"`
	FirstPageRounds  int     `json:"firstPageRounds"`
	SecondPageP50Ms  float64 `json:"secondPageP50Ms"`
	SecondPageCalls  int     `json:"secondPageCalls"`
	SecondPageRounds int     `json:"secondPageRounds"`
	FirstPageRCU     float64 `json:"firstPageRcu"`
	SecondPageRCU    float64 `json:"secondPageRcu,omitempty"`
	// The calls' operations, in the order they started.
	FirstPageOps  string `json:"firstPageOps"`
	SecondPageOps string `json:"secondPageOps,omitempty"`
}

// Run seeds contacts into one account (1k, 10k, and with -large
// 100k; -sizes picks others), and into several accounts, and measures the
// p50 latency and the DynamoDB calls of a page of 20 contacts, first and in
// the middle of the list, and of searches (the query parameter) in the
// one-account shapes.
func Run(args []string) error {
	c := kit.NewCommand("dataset")
	large := c.Bool("large", false, "also 100,000 contacts in one account (seeding takes minutes)")
	sizes := c.String("sizes", "1000,10000", "comma-separated numbers of contacts, each seeded into one account")
	reps := c.Int("n", 15, "requests per figure")
	if err := c.Parse(args); err != nil {
		return err
	}
	var shapes [][2]int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 40 {
			return fmt.Errorf("-sizes: %q is not a number of contacts (40 or more)", f)
		}
		shapes = append(shapes, [2]int{1, n})
	}
	shapes = append(shapes, [2]int{10, 1000})
	if *large {
		shapes = append(shapes, [2]int{1, 100000})
	}
	ctx := context.Background()
	eng, err := kit.StartEngine(ctx, c.Root)
	if err != nil {
		return err
	}
	defer eng.Stop()
	var out []Figure
	for _, sh := range shapes {
		fig, err := measureDataset(ctx, eng, sh[0], sh[1], *reps)
		if err != nil {
			return err
		}
		out = append(out, fig)
		Print(fig)
	}
	name := "dataset.json"
	if *large {
		name = "dataset-large.json"
	}
	return c.Save(name, out)
}

func Print(fig Figure) {
	fmt.Printf("%2d account(s) x %6d contacts: first page p50 %6.1f ms (%d calls, %d round trips, %.1f RCU; DynamoDB Local's Query alone %.1f ms), middle page p50 %6.1f ms (%d calls, %d round trips, %.1f RCU)\n",
		fig.Accounts, fig.ContactsPerAcct, fig.FirstPageP50Ms, fig.FirstPageCalls, fig.FirstPageRounds, fig.FirstPageRCU, fig.RawQueryP50Ms, fig.MiddlePageP50Ms, fig.MiddlePageCalls, fig.MiddlePageRounds, fig.MiddlePageRCU)
	for _, s := range fig.Searches {
		second := "no second page"
		if s.SecondPageCalls > 0 {
			second = fmt.Sprintf("second page p50 %7.1f ms (%2d calls, %d round trips, %.1f RCU)", s.SecondPageP50Ms, s.SecondPageCalls, s.SecondPageRounds, s.SecondPageRCU)
		}
		fmt.Printf("    search %-22q %-34s %6d matches: first page p50 %7.1f ms (%2d calls, %d round trips, %.1f RCU), %s\n",
			s.Query, "("+s.What+")", s.Matches, s.FirstPageP50Ms, s.FirstPageCalls, s.FirstPageRounds, s.FirstPageRCU, second)
	}
}

// datasetContact is the i-th contact of an account of the dataset: every
// contact's first name is "First" (a word every contact has), its last name
// "Last<i>" (a word one contact has).
func datasetContact(acct string, a, i int, added time.Time) contactstore.Contact {
	return contactstore.Contact{ID: fmt.Sprintf("dsCtc%04d%07d", a, i), LocationID: acct, FirstName: "First", LastName: fmt.Sprintf("Last%d", i),
		Email: fmt.Sprintf("c%d@example.com", i), DateAdded: added.Format(time.RFC3339), Tags: []string{}, CustomFields: []contactstore.CustomValue{}, Followers: []string{}}
}

// datasetSearches are the searches measured in an account of n contacts.
// Their words are the same kind at every size: "last<n/2>" names one
// contact at any n (no contact is numbered ten times higher).
func datasetSearches(n int) [][2]string {
	rare := fmt.Sprintf("last%d", n/2)
	return [][2]string{
		{"first", "a word of every contact"},
		{rare, "a word of one contact"},
		{"last5", "a word prefix: last5, last50..."},
		{"first " + rare, "two words, one of one contact"},
		{"first last5", "two words, one a prefix"},
	}
}

// benchClient sends list requests to a server with a token.
type benchClient struct {
	handler http.Handler
	token   string
}

// get answers the request and its decoded body.
func (b benchClient) get(q url.Values) (datasetPage, error) {
	r := httptest.NewRequest("GET", "/contacts/?"+q.Encode(), nil)
	r.Header.Set("Authorization", "Bearer "+b.token)
	r.Header.Set("Version", "2021-07-28")
	w := httptest.NewRecorder()
	b.handler.ServeHTTP(w, r)
	var page datasetPage
	if w.Code != http.StatusOK {
		return page, fmt.Errorf("list answered %d: %s", w.Code, w.Body)
	}
	return page, json.Unmarshal(w.Body.Bytes(), &page)
}

// datasetPage is the part of a list answer the measurements use.
type datasetPage struct {
	Count int `json:"count"`
	Meta  struct {
		NextPageURL *string `json:"nextPageUrl"`
	} `json:"meta"`
}

// p50 is the median time of reps requests.
func (b benchClient) p50(q url.Values, reps int) (float64, error) {
	var ms []float64
	for i := 0; i < reps; i++ {
		t0 := time.Now()
		if _, err := b.get(q); err != nil {
			return 0, err
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	sort.Float64s(ms)
	return ms[len(ms)/2], nil
}

func measureDataset(ctx context.Context, eng *kit.Engine, nAccounts, perAccount, reps int) (Figure, error) {
	fig := Figure{Accounts: nAccounts, ContactsPerAcct: perAccount}
	table := &storage.Table{DB: eng.Direct, Name: "dataset-" + kit.RandomHex(4)}
	if _, err := storage.CreateTable(ctx, eng.Direct, table.Name); err != nil {
		return fig, err
	}
	deps := wiring.Deps{Table: table, Clock: clock.System{}, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	srv, err := apiserver.New(kit.Config(table.Name), deps, contacts.Area)
	if err != nil {
		return fig, err
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var token string
	for a := 0; a < nAccounts; a++ {
		acct := fmt.Sprintf("dsAcct%04d", a)
		if _, err := accounts.NewRegistry(table, clock.System{}).Create(ctx, acct, "dsCompany", acct); err != nil {
			return fig, err
		}
		if a == 0 {
			if token, _, err = srv.Tokens.Create(ctx, auth.NewToken{AccountID: acct, Kind: auth.KindPrivate, Scopes: []string{"contacts.readonly"}, Name: "dataset"}); err != nil {
				return fig, err
			}
		}
		// As the contacts area's loader writes them (in batches, with their
		// search index, then the total and counters).
		load := make([]contactstore.NewContact, perAccount)
		for i := range load {
			added := start.Add(time.Duration(i) * time.Minute)
			load[i] = contactstore.NewContact{Contact: datasetContact(acct, a, i, added), AddedMs: added.UnixMilli()}
		}
		if err := contactstore.NewContacts(table).Load(ctx, load); err != nil {
			return fig, err
		}
	}
	mid := perAccount / 2
	midAdded := start.Add(time.Duration(mid) * time.Minute)
	first := url.Values{"locationId": {"dsAcct0000"}, "limit": {"20"}}
	middle := url.Values{"locationId": {"dsAcct0000"}, "limit": {"20"}, "startAfter": {fmt.Sprint(midAdded.UnixMilli())}, "startAfterId": {fmt.Sprintf("dsCtc%04d%07d", 0, mid)},
		// As meta.nextPageUrl carries it: the page number, so nothing is counted.
		"page": {fmt.Sprint((mid+1)/20 + 1)}}

	direct := benchClient{srv.Handler, token}
	if fig.FirstPageP50Ms, err = direct.p50(first, reps); err != nil {
		return fig, err
	}
	if fig.MiddlePageP50Ms, err = direct.p50(middle, reps); err != nil {
		return fig, err
	}
	if fig.RawQueryP50Ms, err = rawQuery(ctx, table, "CONTACTS#dsAcct0000", reps); err != nil {
		return fig, err
	}
	// Calls, through the counting proxy, which holds each call 20 ms so that
	// concurrent calls are told from sequential ones.
	countedSrv, err := apiserver.New(kit.Config(table.Name), wiring.Deps{Table: &storage.Table{DB: eng.Proxied, Name: table.Name}, Clock: clock.System{}, Logger: deps.Logger}, contacts.Area)
	if err != nil {
		return fig, err
	}
	counted := benchClient{countedSrv.Handler, token}
	eng.Proxy.Delay = 20 * time.Millisecond
	eng.Proxy.Capacity = true
	defer func() { eng.Proxy.Delay, eng.Proxy.Capacity = 0, false }()
	// The first request warms the token cache, as a warm instance has it.
	if _, err := counted.get(first); err != nil {
		return fig, err
	}
	if fig.FirstPageCalls, fig.FirstPageRounds, _, fig.FirstPageRCU, err = counted.calls(eng, first); err != nil {
		return fig, err
	}
	if fig.MiddlePageCalls, fig.MiddlePageRounds, _, fig.MiddlePageRCU, err = counted.calls(eng, middle); err != nil {
		return fig, err
	}
	if nAccounts > 1 {
		return fig, nil
	}
	for _, s := range datasetSearches(perAccount) {
		sf := SearchFigure{Query: s[0], What: s[1]}
		q := url.Values{"locationId": {"dsAcct0000"}, "limit": {"20"}, "query": {s[0]}}
		page, err := direct.get(q)
		if err != nil {
			return fig, err
		}
		sf.Matches = page.Count
		if sf.FirstPageP50Ms, err = direct.p50(q, reps); err != nil {
			return fig, err
		}
		if sf.FirstPageCalls, sf.FirstPageRounds, sf.FirstPageOps, sf.FirstPageRCU, err = counted.calls(eng, q); err != nil {
			return fig, err
		}
		if page.Meta.NextPageURL != nil {
			u, err := url.Parse(*page.Meta.NextPageURL)
			if err != nil {
				return fig, err
			}
			next := u.Query()
			if sf.SecondPageP50Ms, err = direct.p50(next, reps); err != nil {
				return fig, err
			}
			if sf.SecondPageCalls, sf.SecondPageRounds, sf.SecondPageOps, sf.SecondPageRCU, err = counted.calls(eng, next); err != nil {
				return fig, err
			}
		}
		fig.Searches = append(fig.Searches, sf)
	}
	return fig, nil
}

// calls sends one request and returns the DynamoDB calls, sequential round
// trips, operations and read units the proxy saw.
func (b benchClient) calls(eng *kit.Engine, q url.Values) (int, int, string, float64, error) {
	eng.Proxy.Take()
	if _, err := b.get(q); err != nil {
		return 0, 0, "", 0, err
	}
	calls := eng.Proxy.Take()
	rcu, _ := testenv.Capacity(calls)
	return len(calls), testenv.RoundTrips(calls), testenv.Ops(calls), rcu, nil
}

// rawQuery is the p50 of the first page's Query sent straight to the engine.
func rawQuery(ctx context.Context, table *storage.Table, pk string, reps int) (float64, error) {
	var ms []float64
	for i := 0; i < reps; i++ {
		t0 := time.Now()
		_, err := table.DB.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(table.Name), IndexName: aws.String(storage.IndexGSI1),
			KeyConditionExpression:    aws.String("#pk = :pk"),
			ExpressionAttributeNames:  map[string]string{"#pk": storage.AttrGSI1PK},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
			Limit:                     aws.Int32(21),
		})
		if err != nil {
			return 0, err
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	sort.Float64s(ms)
	return ms[len(ms)/2], nil
}
