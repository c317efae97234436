package hardening

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/tools/perf"
)

// maxEventShare bounds the write units an event adds to its change (the
// request's units with it less without it): its item and its fan-out
// entry, and for a change that was one write, that write made
// transactional. Issue 35 asks at most 8 for the copy of a 2 KB brand
// board made the default; every operation keeps within it.
const maxEventShare = 8

// capacityEnv is a demo environment whose table is reached through the
// counting proxy.
type capacityEnv struct {
	*demoEnv
	direct *storage.Table
}

func newCapacityEnv(t *testing.T, proxyURL string) capacityEnv {
	db, err := dynamo.NewClient(context.Background(), proxyURL, "us-east-1", nil)
	require.NoError(t, err)
	direct := testenv.NewTable(t)
	return capacityEnv{demoEnv: newDemoEnv(t, testenv.WithTable(&storage.Table{DB: db, Name: direct.Name})), direct: direct}
}

// TestEachWriteOperationsEventCostsASmallBoundedShare measures, through
// the counting proxy (tools/perf: each transaction sized item by item as
// DynamoDB prices it, index writes included), the write units of each
// write operation's sample, warm (its token read once), on two copies of
// the demo data: with its event, and with the event taken out of its
// transaction on the wire (the change alone, a lone write priced as the
// plain write it was before events). Then the same for the copy of a 2 KB
// brand board made the account's default (issue 35's case), with the
// units of handing its event on. The tables it logs are
// docs/performance.md's.
func TestEachWriteOperationsEventCostsASmallBoundedShare(t *testing.T) {
	proxy, err := perf.NewCountingProxy(testenv.Endpoint(t))
	require.NoError(t, err)
	proxy.Capacity, proxy.Indexes = true, true
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	with, without := newCapacityEnv(t, front.URL), newCapacityEnv(t, front.URL)

	// measure sends req warm on env and returns the request's write units
	// and the event it made (none without).
	measure := func(t *testing.T, env capacityEnv, withEvent bool, req testenv.Request, status int) (float64, []events.Recorded) {
		t.Helper()
		warm, _ := samples.Of(operations.ListSurveys) // reads the token and the rate counter once
		wreq := env.sampleRequest(t, warm)
		wreq.Token = req.Token
		env.Do(t, wreq)
		before := env.accountEvents(t)
		proxy.WithoutEvents = !withEvent
		defer func() { proxy.WithoutEvents = false }()
		proxy.Take()
		resp := env.Do(t, req)
		calls := proxy.Take()
		require.Equal(t, status, resp.Status, "%s", resp.Body)
		_, wcu := testenv.Capacity(calls)
		return wcu, newEvents(before, env.accountEvents(t))
	}

	var report strings.Builder
	fmt.Fprintln(&report, "| operation | WCU with its events | WCU without | the events' share | event item bytes |")
	fmt.Fprintln(&report, "|---|---|---|---|---|")
	for _, op := range operations.All {
		if !op.Changes() || readsSentAsPOST[op.ID()] {
			continue
		}
		s, _ := samples.Of(op)
		t.Run(op.ID(), func(t *testing.T) {
			withUnits, made := measure(t, with, true, with.sampleRequest(t, s), s.Status)
			require.NotEmpty(t, made, "a change makes its events")
			withoutUnits, none := measure(t, without, false, without.sampleRequest(t, s), s.Status)
			require.Empty(t, none, "the change alone made no event")
			sizes := make([]string, len(made))
			for i, ev := range made {
				sizes[i] = fmt.Sprint(eventItemSize(t, with.direct, ev))
			}
			// A change may make several events in its one transaction (a
			// contact's DND, tags and fields changed at once): each is
			// bounded.
			share := withUnits - withoutUnits
			assert.LessOrEqual(t, share, float64(maxEventShare*len(made)), "the share of %s's %d events", op.ID(), len(made))
			fmt.Fprintf(&report, "| %s | %g | %g | %g | %s |\n", op.ID(), withUnits, withoutUnits, share, strings.Join(sizes, ", "))
		})
	}

	t.Run("a 2 KB brand board copied as the default", func(t *testing.T) {
		copyAs := func(env capacityEnv, withEvent bool, source string) (float64, []events.Recorded) {
			body := fmt.Sprintf(`{"locationId":%q,"name":"Spring campaign, from the brand book","brandBoardId":%q,"default":true}`, demo.AccountAlpha, source)
			return measure(t, env, withEvent, testenv.Request{Method: http.MethodPost, Path: "/brand-boards/", Body: body, Token: env.tokenFor(demo.AccountAlpha, false)}, http.StatusCreated)
		}
		var sources [2]string
		for i, env := range []capacityEnv{with, without} {
			sources[i] = bigBoard(t, env)
			copyAs(env, true, sources[i]) // the default is a 2 KB copy from here on, as it is cleared by the next
		}
		withUnits, made := copyAs(with, true, sources[0])
		require.Len(t, made, 1)
		withoutUnits, _ := copyAs(without, false, sources[1])
		size := eventItemSize(t, with.direct, made[0])
		boardSize := boardItemSize(t, with.direct, made[0])
		share := withUnits - withoutUnits
		assert.LessOrEqual(t, share, float64(maxEventShare), "issue 35: the copy with its event within 8 units of the copy alone")

		// What the deliverer writes for it: the fan-out to one app (its
		// delivery, already claimed for its first attempt, and the event
		// taken out of the fan-out index with its counts), then that
		// attempt recorded as delivered (the delivery out of the due
		// index, and the event's counts).
		ctx := context.Background()
		now := time.Now()
		app := deliveries.Receiver{ID: "appBoards", URL: "https://boards.example.com/hooks", Types: []string{made[0].Type}, App: true, Scopes: []string{made[0].Scope}}
		proxy.Take()
		added, err := deliveries.FanOut(ctx, with.Table, []deliveries.Receiver{app}, made[0], now, now.Add(deliveries.Lease))
		require.NoError(t, err)
		require.Len(t, added, 1)
		_, fanOut := testenv.Capacity(proxy.Take())
		_, recorded, err := deliveries.Record(ctx, with.Table, deliveries.Default, added[0], deliveries.Attempt{At: clock.Timestamp(now), Status: http.StatusOK}, added[0].LeaseUntil, now, false)
		require.NoError(t, err)
		require.True(t, recorded)
		_, record := testenv.Capacity(proxy.Take())
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(added[0].Body), &body), "the body sent is whole")
		assert.Len(t, body["colors"], 9)

		fmt.Fprintf(&report, "| POST /brand-boards/ (a copy of a %d-byte board, made the default over another such copy) | %g | %g | %g | %d |\n",
			boardSize, withUnits, withoutUnits, share, size)
		fmt.Fprintf(&report, "\nthat event (body %d bytes), delivered to one app: the fan-out %g WCU (the delivery and the hand-on), the attempt's record %g WCU (the delivery and the event's counts)\n",
			len(made[0].Body), fanOut, record)
	})
	t.Log("\n" + report.String())
}

// bigBoard creates, in the demo account, a board of about 2 KB as DynamoDB
// sizes its item (4 logos, 9 colors, 3 fonts, each with an id of 24 hex
// digits that gzip cannot shrink), and returns its id.
func bigBoard(t *testing.T, env capacityEnv) string {
	t.Helper()
	id := func(kind string, i int) string {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s%d", kind, i))
		return hex.EncodeToString(sum[:12])
	}
	var logos, colors, fonts []string
	for i := range 4 {
		logos = append(logos, fmt.Sprintf(`{"id":%q,"url":"https://cdn.example.com/brand/northwind/logo-%d.png","label":"Logo %d","path":"/brand/logo-%d.png"}`, id("logo", i), i, i, i))
	}
	for i := range 9 {
		colors = append(colors, fmt.Sprintf(`{"id":%q,"hexa":"#1a2b%02xff","rgba":"rgba(26, 43, %d, 1)","hex":"#1a2b%02x","rgb":"rgb(26, 43, %d)","label":"Brand color %d"}`, id("color", i), i, i, i, i, i))
	}
	for i := range 3 {
		fonts = append(fonts, fmt.Sprintf(`{"id":%q,"font":"Inter","fallback":"Helvetica, Arial, sans-serif","label":"Heading %d"}`, id("font", i), i))
	}
	body := fmt.Sprintf(`{"locationId":%q,"name":"Northwind brand book","logos":[%s],"colors":[%s],"fonts":[%s]}`,
		demo.AccountAlpha, strings.Join(logos, ","), strings.Join(colors, ","), strings.Join(fonts, ","))
	resp := env.Do(t, testenv.Request{Method: http.MethodPost, Path: "/brand-boards/", Body: body, Token: env.tokenFor(demo.AccountAlpha, false)})
	require.Equal(t, http.StatusCreated, resp.Status, resp.Body)
	var b struct {
		ID string `json:"_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(resp.Body), &b))
	return b.ID
}

// boardItemSize is the stored size of the board an event of
// BrandBoardCreate names.
func boardItemSize(t *testing.T, table *storage.Table, ev events.Recorded) int {
	t.Helper()
	var body struct {
		ID string `json:"_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(ev.Body), &body))
	items, err := storage.QueryPartition[map[string]any](context.Background(), table, storage.AccountPK(demo.AccountAlpha), "BRANDBOARD#"+body.ID)
	require.NoError(t, err)
	require.Len(t, items, 1)
	return itemSize(t, items[0])
}

// eventItemSize is the stored event's size as DynamoDB counts it.
func eventItemSize(t *testing.T, table *storage.Table, ev events.Recorded) int {
	t.Helper()
	items, err := storage.QueryPartition[map[string]any](context.Background(), table, ev.Owner.PK(), "EVENT#")
	require.NoError(t, err)
	for _, it := range items {
		if it["eventId"] == ev.ID {
			return itemSize(t, it)
		}
	}
	t.Fatalf("event %s not stored", ev.ID)
	return 0
}

// itemSize is an item's size as DynamoDB counts it (storage.ItemSize).
func itemSize(t *testing.T, item map[string]any) int {
	t.Helper()
	av, err := attributevalue.MarshalMap(item)
	require.NoError(t, err)
	require.NotEmpty(t, av)
	return storage.ItemSize(av)
}
