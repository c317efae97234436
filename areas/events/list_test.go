package events_test

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/emails"
	"github.com/bizplatform/api/areas/events"
	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// meter sums the read units of the Queries made through a table.
type meter struct {
	mu  sync.Mutex
	rcu float64
}

func (m *meter) take() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	rcu := m.rcu
	m.rcu = 0
	return rcu
}

// meteredTable is a new test table whose client asks DynamoDB for the
// capacity each Query consumed and adds it to the meter.
func meteredTable(t *testing.T) (*storage.Table, *meter) {
	t.Helper()
	base := testenv.NewTable(t)
	db, err := dynamo.NewClient(context.Background(), testenv.Endpoint(t), "us-east-1", nil)
	require.NoError(t, err)
	m := &meter{}
	step := middleware.InitializeMiddlewareFunc("meterReads", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if q, ok := in.Parameters.(*dynamodb.QueryInput); ok {
			q.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		}
		out, md, err := next.HandleInitialize(ctx, in)
		if q, ok := out.Result.(*dynamodb.QueryOutput); ok && q.ConsumedCapacity != nil && q.ConsumedCapacity.CapacityUnits != nil {
			m.mu.Lock()
			m.rcu += *q.ConsumedCapacity.CapacityUnits
			m.mu.Unlock()
		}
		return out, md, err
	})
	metered := dynamodb.New(db.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error { return s.Initialize.Add(step, middleware.After) })
	})
	return &storage.Table{DB: metered, Name: base.Name}, m
}

type eventsEnv struct {
	*testenv.Env
	alpha string // a token of Alpha with every scope
	meter *meter
}

// newEventsEnv serves the events area and three areas whose writes make
// events, on the demo data of those areas.
func newEventsEnv(t *testing.T) *eventsEnv {
	t.Helper()
	table, m := meteredTable(t)
	env := testenv.New(t, []app.Area{events.Area, contacts.Area, payments.Area, emails.Area}, testenv.WithTable(table))
	ds, err := demo.Default()
	require.NoError(t, err)
	keep := demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart]}
	for _, part := range []string{"contacts", "payments", "emails"} {
		keep[part] = ds[part]
	}
	_, err = demo.Load(context.Background(), env.Deps, keep, catalog.Areas)
	require.NoError(t, err)
	alpha, _ := env.Token(t, demo.AccountAlpha)
	return &eventsEnv{Env: env, alpha: alpha, meter: m}
}

// write sends op's sample request (a real write on the demo data), a
// millisecond after the previous one so that events order by time.
func (e *eventsEnv) write(t *testing.T, op operations.Operation) {
	t.Helper()
	s, ok := samples.Of(op)
	require.True(t, ok)
	e.Clock.Advance(time.Millisecond)
	req := testenv.Request{Method: op.Method, Path: s.Path, Token: e.alpha}
	if s.Body != "" {
		req.Body = s.Body
	}
	resp := e.Do(t, req)
	require.Equal(t, s.Status, resp.Status, "body: %s", resp.Body)
}

type page struct {
	Events []map[string]any `json:"events"`
	Meta   struct {
		NextCursor *string `json:"nextCursor"`
		Count      int     `json:"count"`
	} `json:"meta"`
}

func (e *eventsEnv) list(t *testing.T, token string, query url.Values) page {
	t.Helper()
	resp := e.Do(t, testenv.Request{Method: "GET", Path: "/events?" + query.Encode(), Token: token})
	require.Equal(t, 200, resp.Status, "body: %s", resp.Body)
	var p page
	resp.JSON(t, &p)
	require.Equal(t, len(p.Events), p.Meta.Count)
	return p
}

func alphaQuery(kv ...string) url.Values {
	q := url.Values{"locationId": {demo.AccountAlpha}}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return q
}

func typesOf(p page) []string {
	out := make([]string, len(p.Events))
	for i, ev := range p.Events {
		out[i] = ev["type"].(string)
	}
	return out
}

func TestListEvents(t *testing.T) {
	e := newEventsEnv(t)
	e.write(t, operations.DeleteTask)
	e.write(t, operations.DeleteCoupon)
	const templates = 21
	for range templates {
		e.write(t, operations.CreateEmailTemplate)
	}
	total := 2 + templates

	t.Run("the events of real writes are listed newest first, as delivered", func(t *testing.T) {
		p := e.list(t, e.alpha, alphaQuery("limit", "100"))
		require.Len(t, p.Events, total)
		assert.Nil(t, p.Meta.NextCursor, "one page holds them all")
		got := typesOf(p)
		assert.Equal(t, "TaskDelete", got[total-1], "the oldest last")
		assert.Equal(t, "CouponDelete", got[total-2])
		assert.Equal(t, "EmailTemplateCreate", got[0])
		for i := 1; i < total; i++ {
			assert.GreaterOrEqual(t, p.Events[i-1]["timestamp"], p.Events[i]["timestamp"], "newest first")
		}
		task := p.Events[total-1]
		assert.Equal(t, demo.AccountAlpha, task["locationId"])
		assert.Equal(t, "demoCtcAlpha00000001", task["contactId"], "TaskDelete carries its contact")
		assert.NotEmpty(t, task["webhookId"])
		assert.EqualValues(t, 1, task["version"])
	})

	t.Run("paging with the cursor returns each event once and ends", func(t *testing.T) {
		seen := map[string]bool{}
		q := alphaQuery("limit", "5")
		pages := 0
		for {
			p := e.list(t, e.alpha, q)
			pages++
			require.LessOrEqual(t, p.Meta.Count, 5)
			for _, ev := range p.Events {
				id := ev["webhookId"].(string)
				assert.False(t, seen[id], "%s is listed once", id)
				seen[id] = true
			}
			if p.Meta.NextCursor == nil {
				break
			}
			require.Less(t, pages, 10, "the listing ends")
			q.Set("cursor", *p.Meta.NextCursor)
		}
		assert.Len(t, seen, total)
		assert.Equal(t, 5, pages)
	})

	t.Run("a page of 20 costs a bounded read, measured", func(t *testing.T) {
		e.meter.take()
		p := e.list(t, e.alpha, alphaQuery("limit", "20"))
		require.Len(t, p.Events, 20)
		rcu := e.meter.take()
		t.Logf("GET /events, a page of 20 events: %.1f read units (Query, eventually consistent)", rcu)
		assert.Positive(t, rcu)
		assert.LessOrEqual(t, rcu, 3.0, "21 events of about 1 KB (limit+1 read), one eventually consistent Query")
	})

	t.Run("a token sees only the events its scopes can read", func(t *testing.T) {
		contactsOnly, _ := e.Token(t, demo.AccountAlpha, operations.ListEvents.Scope, "contacts.readonly")
		p := e.list(t, contactsOnly, alphaQuery("limit", "100"))
		assert.Equal(t, []string{"TaskDelete"}, typesOf(p), "TaskDelete (contacts.readonly), not CouponDelete nor EmailTemplateCreate")
		none, _ := e.Token(t, demo.AccountAlpha, operations.ListEvents.Scope)
		assert.Empty(t, e.list(t, none, alphaQuery()).Events)
	})

	t.Run("type and time filter the listing", func(t *testing.T) {
		p := e.list(t, e.alpha, alphaQuery("type", "CouponDelete,TaskDelete"))
		assert.Equal(t, []string{"CouponDelete", "TaskDelete"}, typesOf(p))
		all := e.list(t, e.alpha, alphaQuery("limit", "100"))
		taskAt := all.Events[total-1]["timestamp"].(string)
		couponAt := all.Events[total-2]["timestamp"].(string)
		assert.Equal(t, []string{"TaskDelete"}, typesOf(e.list(t, e.alpha, alphaQuery("to", couponAt))), "to excludes its own instant")
		assert.Equal(t, []string{"CouponDelete", "TaskDelete"}, typesOf(e.list(t, e.alpha, alphaQuery("from", taskAt, "type", "TaskDelete,CouponDelete"))))
		assert.Equal(t, []string{"CouponDelete"}, typesOf(e.list(t, e.alpha, alphaQuery("startAfter", taskAt, "type", "TaskDelete,CouponDelete"))))
	})

	t.Run("status filters by delivery state: none is handed on before the deliverer runs", func(t *testing.T) {
		assert.Len(t, e.list(t, e.alpha, alphaQuery("status", "pending", "limit", "100")).Events, total)
		assert.Empty(t, e.list(t, e.alpha, alphaQuery("status", "delivered")).Events)
		assert.Empty(t, e.list(t, e.alpha, alphaQuery("status", "failed")).Events)
	})

	t.Run("another account's locationId is refused with 403", func(t *testing.T) {
		resp := e.Do(t, testenv.Request{Method: "GET", Path: "/events?locationId=" + demo.AccountBravo, Token: e.alpha})
		resp.RequireError(t, 403)
	})

	bravo, _ := e.Token(t, demo.AccountBravo)
	bravoPage := e.list(t, bravo, url.Values{"locationId": {demo.AccountBravo}})
	assert.Empty(t, bravoPage.Events, "Bravo's listing holds none of Alpha's events")
	alphaCursor := *e.list(t, e.alpha, alphaQuery("limit", "1")).Meta.NextCursor

	for _, c := range []struct {
		name, query string
		status      int
		names       string
	}{
		{"a missing locationId is refused", "", 422, "locationId"},
		{"an unknown event type is refused, naming the allowed ones", "&type=TaskDelete,Nope", 422, "each one of: TaskDelete, ContactCreate, "},
		{"a malformed from is refused", "&from=yesterday", 422, "from must be an RFC 3339 time"},
		{"a malformed to is refused", "&to=2026-13-01T00:00:00Z", 422, "to must be an RFC 3339 time"},
		{"a malformed startAfter is refused", "&startAfter=1700000000", 422, "startAfter must be an RFC 3339 time"},
		{"a limit above 100 is refused", "&limit=101", 422, "limit must be between 1 and 100"},
		{"an unknown status is refused, naming the allowed ones", "&status=lost", 422, "status must be one of: pending, delivered, failed, unrouted"},
		{"a limit of 0 is refused", "&limit=0", 422, "limit must be between 1 and 100"},
		{"a cursor that does not parse is refused", "&cursor=%21%21not-base64", 422, "cursor must be"},
		{"a cursor of another account is refused", "&cursor=" + alphaCursor, 422, "cursor must be"},
		{"a parameter given twice is refused", "&limit=1&limit=2", 400, "limit is given 2 times"},
	} {
		t.Run(c.name, func(t *testing.T) {
			loc := "locationId=" + demo.AccountBravo
			if c.name == "a missing locationId is refused" {
				loc = "limit=1"
			}
			resp := e.Do(t, testenv.Request{Method: "GET", Path: "/events?" + loc + c.query, Token: bravo})
			msg := resp.RequireError(t, c.status)
			assert.Contains(t, strings.Join(strings.Fields(msg), " "), c.names)
		})
	}
}
