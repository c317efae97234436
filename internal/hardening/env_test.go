package hardening

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// demoEnv is every area served on one table holding the demo dataset (three
// accounts in two companies), with a private and a marketplace token of
// every scope for each account.
type demoEnv struct {
	*testenv.Env
	private     map[string]string // account -> token
	marketplace map[string]string
}

func newDemoEnv(t testing.TB, opts ...testenv.Option) *demoEnv {
	t.Helper()
	return newDemoEnvOf(t, nil, opts...)
}

// newDemoEnvOf loads only the accounts and the demo data of the given
// areas (all of it when parts is nil): loading is most of a test's set-up.
func newDemoEnvOf(t testing.TB, parts []string, opts ...testenv.Option) *demoEnv {
	t.Helper()
	e := testenv.New(t, catalog.Areas, opts...)
	ds, err := demo.Default()
	require.NoError(t, err)
	if parts != nil {
		keep := demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart]}
		for _, p := range parts {
			require.Contains(t, ds, p)
			keep[p] = ds[p]
		}
		ds = keep
	}
	_, err = demo.Load(context.Background(), e.Deps, ds, catalog.Areas)
	require.NoError(t, err)
	d := &demoEnv{Env: e, private: map[string]string{}, marketplace: map[string]string{}}
	for _, acct := range demoAccounts {
		d.private[acct], _ = e.Token(t, acct)
		d.marketplace[acct], _ = e.TokenOfKind(t, acct, auth.KindMarketplace)
	}
	return d
}

var demoAccounts = []string{demo.AccountAlpha, demo.AccountBravo, demo.AccountCharlie}

// tokenFor returns the token of account that op accepts.
func (d *demoEnv) tokenFor(acct string, marketplaceOnly bool) string {
	if marketplaceOnly {
		return d.marketplace[acct]
	}
	return d.private[acct]
}

// snapshot is every stored item except the rate limiter's admission state
// (which every request changes) and the failed-request list (which every
// refused request adds to), as canonical JSON lines keyed by PK/SK.
type snapshot map[string]string

// takeSnapshot scans the whole table.
func takeSnapshot(t testing.TB, table *storage.Table) snapshot {
	t.Helper()
	skip := map[string]bool{}
	for _, acct := range demoAccounts {
		k := ratelimit.StateKey(acct)
		skip[k.PK+"\x00"+k.SK] = true
	}
	out := snapshot{}
	p := dynamodb.NewScanPaginator(rawClient(t), &dynamodb.ScanInput{TableName: &table.Name, ConsistentRead: ptr(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		require.NoError(t, err)
		for _, av := range page.Items {
			var item map[string]any
			require.NoError(t, attributevalue.UnmarshalMap(av, &item))
			key := item[storage.AttrPK].(string) + "\x00" + item[storage.AttrSK].(string)
			if skip[key] || strings.HasPrefix(item[storage.AttrPK].(string), ratelimit.StateKey("").PK) && item[storage.AttrSK] == ratelimit.StateKey("").SK {
				continue
			}
			// The account's failed-request list, which every refused
			// request adds to (shared/failures), as the limiter's state.
			if strings.HasPrefix(item[storage.AttrSK].(string), "FAILURE") {
				continue
			}
			raw, err := json.Marshal(item) // maps marshal with sorted keys
			require.NoError(t, err)
			out[key] = string(raw)
		}
	}
	return out
}

// rawClient is a DynamoDB client of the test engine with every call (the
// tables' own clients may offer only the calls the product makes).
func rawClient(t testing.TB) *dynamodb.Client {
	t.Helper()
	// A page of the whole-table scan takes more than a request's 3 s on a
	// busy machine; the snapshot is the test's, not a request's.
	db, err := dynamo.NewClient(context.Background(), testenv.Endpoint(t), "us-east-1", nil, dynamo.WithCallTimeout(time.Minute))
	require.NoError(t, err)
	return db
}

// partition keeps the items of one partition key.
func (s snapshot) partition(pk string) snapshot {
	out := snapshot{}
	for k, v := range s {
		if strings.HasPrefix(k, pk+"\x00") {
			out[k] = v
		}
	}
	return out
}

// requireSame fails with the keys that were added, removed or changed.
func requireSame(t testing.TB, before, after snapshot) {
	t.Helper()
	var diffs []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			diffs = append(diffs, "removed "+readable(k))
		} else if w != v {
			diffs = append(diffs, "changed "+readable(k)+"\n  before: "+v+"\n  after:  "+w)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diffs = append(diffs, "added "+readable(k)+": "+after[k])
		}
	}
	sort.Strings(diffs)
	require.Empty(t, diffs, "the stored data changed (%d items)", len(diffs))
}

func readable(key string) string { return strings.ReplaceAll(key, "\x00", " / ") }

func ptr[T any](v T) *T { return &v }

// errorBody checks that resp is a client error (4xx) with the JSON error
// body, and returns its message as text.
func errorBody(t testing.TB, resp *testenv.Response) string {
	t.Helper()
	require.GreaterOrEqual(t, resp.Status, 400, "body: %s", clipBody(resp.Body))
	require.Less(t, resp.Status, 500, "body: %s", clipBody(resp.Body))
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"), "content type %q", resp.Header.Get("Content-Type"))
	return resp.RequireError(t, resp.Status)
}

// clipBody keeps failure messages readable when an answer echoes a huge
// request.
func clipBody(b []byte) string {
	if len(b) > 500 {
		return string(b[:500]) + "..."
	}
	return string(b)
}
