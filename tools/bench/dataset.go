package main

import (
	"context"

	"flag"
	"fmt"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"time"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/tools/perf"
)

// DatasetFigure is list latency for one dataset shape.
type DatasetFigure struct {
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
}

// runDataset seeds contacts into one account (1k, 10k, and with -large
// 100k), and into several accounts, and measures the p50 latency and the
// DynamoDB calls of a page of 20 contacts, first and in the middle of the
// list.
func runDataset(args []string) error {
	var c common
	fs := flag.NewFlagSet("dataset", flag.ExitOnError)
	c.register(fs)
	large := fs.Bool("large", false, "also 100,000 contacts in one account (seeding takes minutes)")
	reps := fs.Int("n", 15, "requests per figure")
	_ = fs.Parse(args)
	if err := c.init(); err != nil {
		return err
	}
	ctx := context.Background()
	eng, err := startEngine(ctx, c.root)
	if err != nil {
		return err
	}
	defer eng.stop()
	shapes := [][2]int{{1, 1000}, {1, 10000}, {10, 1000}}
	if *large {
		shapes = append(shapes, [2]int{1, 100000})
	}
	var out []DatasetFigure
	for _, sh := range shapes {
		fig, err := measureDataset(ctx, eng, sh[0], sh[1], *reps)
		if err != nil {
			return err
		}
		out = append(out, fig)
		fmt.Printf("%2d account(s) x %6d contacts: first page p50 %6.1f ms (%d calls, %d round trips; dynalite's Query alone %.1f ms), middle page p50 %6.1f ms (%d calls, %d round trips)\n",
			fig.Accounts, fig.ContactsPerAcct, fig.FirstPageP50Ms, fig.FirstPageCalls, fig.FirstPageRounds, fig.RawQueryP50Ms, fig.MiddlePageP50Ms, fig.MiddlePageCalls, fig.MiddlePageRounds)
	}
	name := "dataset.json"
	if *large {
		name = "dataset-large.json"
	}
	return c.save(name, out)
}

func measureDataset(ctx context.Context, eng *engine, nAccounts, perAccount, reps int) (DatasetFigure, error) {
	fig := DatasetFigure{Accounts: nAccounts, ContactsPerAcct: perAccount}
	table := &storage.Table{DB: eng.direct, Name: "dataset-" + randomHex(4)}
	if _, err := table.CreateIfMissing(ctx); err != nil {
		return fig, err
	}
	deps := app.Deps{Table: table, Clock: clock.System{}, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	srv, err := app.NewServer(benchConfig(table.Name), deps, contacts.Area)
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
		var items []any
		for i := 0; i < perAccount; i++ {
			added := start.Add(time.Duration(i) * time.Minute)
			ct := contactstore.Contact{ID: fmt.Sprintf("dsCtc%04d%07d", a, i), LocationID: acct, FirstName: "First", LastName: fmt.Sprintf("Last%d", i),
				Email: fmt.Sprintf("c%d@example.com", i), DateAdded: added.Format(time.RFC3339), Tags: []string{}, CustomFields: []contactstore.CustomValue{}, Followers: []string{}}
			items = append(items, contactstore.Items(ct, added.UnixMilli(), nil)...)
		}
		if err := table.BatchPut(ctx, items); err != nil {
			return fig, err
		}
		// As the contacts area's loader does after a bulk write.
		if err := contactstore.NewContacts(table).Recount(ctx, acct); err != nil {
			return fig, err
		}
	}
	mid := perAccount / 2
	midAdded := start.Add(time.Duration(mid) * time.Minute)
	first := url.Values{"locationId": {"dsAcct0000"}, "limit": {"20"}}
	middle := url.Values{"locationId": {"dsAcct0000"}, "limit": {"20"}, "startAfter": {fmt.Sprint(midAdded.UnixMilli())}, "startAfterId": {fmt.Sprintf("dsCtc%04d%07d", 0, mid)},
		// As meta.nextPageUrl carries it: the page number, so nothing is counted.
		"page": {fmt.Sprint((mid+1)/20 + 1)}}

	measure := func(q url.Values) (float64, error) {
		var ms []float64
		for i := 0; i < reps; i++ {
			r := httptest.NewRequest("GET", "/contacts/?"+q.Encode(), nil)
			r.Header.Set("Authorization", "Bearer "+token)
			r.Header.Set("Version", "2021-07-28")
			w := httptest.NewRecorder()
			t0 := time.Now()
			srv.Handler.ServeHTTP(w, r)
			ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
			if w.Code != http.StatusOK {
				return 0, fmt.Errorf("list answered %d: %s", w.Code, w.Body)
			}
		}
		sort.Float64s(ms)
		return ms[len(ms)/2], nil
	}
	if fig.FirstPageP50Ms, err = measure(first); err != nil {
		return fig, err
	}
	if fig.MiddlePageP50Ms, err = measure(middle); err != nil {
		return fig, err
	}
	if fig.RawQueryP50Ms, err = rawQuery(ctx, table, "CONTACTS#dsAcct0000", reps); err != nil {
		return fig, err
	}
	// Calls, through the counting proxy (no delay: only counts matter here).
	counted, err := app.NewServer(benchConfig(table.Name), app.Deps{Table: &storage.Table{DB: eng.proxied, Name: table.Name}, Clock: clock.System{}, Logger: deps.Logger}, contacts.Area)
	if err != nil {
		return fig, err
	}
	eng.proxy.Delay = 0
	for i, q := range []url.Values{first, first, middle} {
		r := httptest.NewRequest("GET", "/contacts/?"+q.Encode(), nil)
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Version", "2021-07-28")
		eng.proxy.Take()
		counted.Handler.ServeHTTP(httptest.NewRecorder(), r)
		calls := eng.proxy.Take()
		switch i {
		case 1:
			fig.FirstPageCalls, fig.FirstPageRounds = len(calls), roundsNoDelay(calls)
		case 2:
			fig.MiddlePageCalls, fig.MiddlePageRounds = len(calls), roundsNoDelay(calls)
		}
	}
	return fig, nil
}

// roundsNoDelay counts sequential round trips without the proxy's delay; on
// a busy machine overlapping calls may then look sequential, so it is an
// upper bound.
func roundsNoDelay(calls []perf.Call) int { return perf.RoundTrips(calls) }

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
