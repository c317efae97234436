package faults_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/tools/perf"
)

// require503 checks an answer given while storage is unreachable: 503, a
// Retry-After in whole seconds, the JSON error body, and within the request
// deadline.
func require503(t *testing.T, what string, a answer) {
	t.Helper()
	require.Equal(t, http.StatusServiceUnavailable, a.status, "%s: body %s", what, a.body)
	secs, err := strconv.Atoi(a.header.Get("Retry-After"))
	require.NoError(t, err, "%s: Retry-After %q", what, a.header.Get("Retry-After"))
	assert.Positive(t, secs, what)
	assert.Empty(t, testenv.CheckErrorBody(http.StatusServiceUnavailable, a.header, a.body), what)
	assert.NotContains(t, string(a.body), "127.0.0.1", "%s: nothing internal in the body", what)
	assert.Less(t, a.took, requestTimeout+slack, "%s: answered within the deadline", what)
}

func sortedNames(events map[string]perf.Event) []string {
	var names []string
	for n := range events {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestEveryOperationAnswers503WhileTheEngineIsDownAndWorksAgainWhenItReturns(t *testing.T) {
	h := newHarness(t)
	require.Equal(t, http.StatusOK, h.call(t, "GET", "/contacts/?locationId=demoLocAlpha00000001&limit=1", "").status)

	h.proxy.down() // the engine goes away mid-run
	var slowest time.Duration
	for _, name := range sortedNames(h.events) {
		t.Run(name+" answers 503 with Retry-After while the engine is down", func(t *testing.T) {
			a := h.sendEvent(t, h.events[name])
			require503(t, name, a)
			slowest = max(slowest, a.took)
		})
	}
	t.Logf("engine down: slowest 503 of the %d operations took %s", len(h.events), slowest.Round(time.Millisecond))
	t.Run("a token the server has not seen yet answers 503, not 401", func(t *testing.T) {
		req, err := h.events["campaigns/list-campaigns"].Request(h.url)
		require.NoError(t, err)
		req.URL.RawQuery = "locationId=demoLocCharlie000003"
		req.Header.Set("Authorization", "Bearer "+demo.Tokens[3].Value())
		require503(t, "unseen token", h.send(t, req))
	})

	h.proxy.up(t)
	// Each sample request succeeds once on the fresh demo data: so every
	// write refused during the outage left nothing behind.
	for _, name := range sortedNames(h.events) {
		t.Run(name+" succeeds once the engine is back, without restarting the server", func(t *testing.T) {
			a := h.sendEvent(t, h.events[name])
			assert.True(t, a.status >= 200 && a.status < 300, "%s: %d %s", name, a.status, a.body)
		})
	}
	assert.NotContains(t, h.logs.String(), `"msg":"panic"`, "no handler panicked")
}

func TestAHungEngineCostsOneRequestDeadlineAndThenWorksAgain(t *testing.T) {
	h := newHarness(t)
	read := func() answer { return h.call(t, "GET", "/campaigns/?locationId=demoLocAlpha00000001", "") }
	require.Equal(t, http.StatusOK, read().status)

	h.proxy.setFrozen(true)
	for _, name := range []string{"campaigns/list-campaigns", "store/update-shipping-zone", "products/update-inventory"} {
		t.Run(name+" answers 503 within the deadline while the engine hangs", func(t *testing.T) {
			a := h.sendEvent(t, h.events[name])
			require503(t, name, a)
			assert.GreaterOrEqual(t, a.took, callTimeout-100*time.Millisecond, "it waited for the engine up to the call deadline")
			t.Logf("engine hung: %s answered 503 after %s (call deadline %s)", name, a.took.Round(time.Millisecond), callTimeout)
		})
	}
	h.proxy.setFrozen(false)
	assert.Equal(t, http.StatusOK, read().status, "the next request after the engine answers again succeeds")
}

// record is a record that a writer rewrites with numbered versions whose
// every field differs, so a stored mix of two versions is visible.
type record struct {
	name string
	// request is version v's write.
	request func(v int) (method, path, body string)
	// read returns the record's stored state, one fingerprint per item.
	read func(t *testing.T, h *harness) []string
	// want is version v's fingerprints.
	want func(v int) []string
}

const alpha = "demoLocAlpha00000001"

var zoneStates = []string{"CA", "OR", "WA", "NV", "AZ"}

func zoneCountries(v int) string {
	var states []string
	for _, s := range zoneStates[:v%len(zoneStates)+1] {
		states = append(states, fmt.Sprintf(`{"code":%q}`, s))
	}
	return `[{"code":"US","states":[` + strings.Join(states, ",") + `]}]`
}

var inventoryPrices = []string{"a10200000000000000000201", "a10200000000000000000202", "a10200000000000000000401"}

var records = []record{
	{
		name: "a shipping zone (name and countries)",
		request: func(v int) (string, string, string) {
			return "PUT", "/store/shipping-zone/a10300000000000000000002",
				fmt.Sprintf(`{"altId":%q,"altType":"account","name":"Zone v%d","countries":%s}`, alpha, v, zoneCountries(v))
		},
		read: func(t *testing.T, h *harness) []string {
			it := h.item(t, key("SHIPZONE#a10300000000000000000002"))
			return []string{fmt.Sprintf("%v|%s", it["name"], canonical(t, it["countries"]))}
		},
		want: func(v int) []string {
			return []string{fmt.Sprintf("Zone v%d|%s", v, zoneCountries(v))}
		},
	},
	{
		name: "a shipping rate (name, description, minimum)",
		request: func(v int) (string, string, string) {
			return "PUT", "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000102",
				fmt.Sprintf(`{"altId":%q,"altType":"account","name":"Rate v%d","description":"Rate number %d","minCondition":%d,"maxCondition":null}`, alpha, v, v, v)
		},
		read: func(t *testing.T, h *harness) []string {
			it := h.item(t, key("SHIPZONE#a10300000000000000000001#RATE#a10400000000000000000102"))
			return []string{fmt.Sprintf("%v|%v|%v", it["name"], it["description"], it["minCondition"])}
		},
		want: func(v int) []string { return []string{fmt.Sprintf("Rate v%d|Rate number %d|%d", v, v, v)} },
	},
	{
		name: "a voice AI action (name and parameters)",
		request: func(v int) (string, string, string) {
			return "PUT", "/voice-ai/actions/demoActAlphaCallTransfer",
				fmt.Sprintf(`{"agentId":"demoAgtAlpha00000001","locationId":%q,"actionType":"CALL_TRANSFER","name":"Transfer v%d","actionParameters":{"triggerPrompt":"Prompt %d","transferToType":"number","transferToValue":"+1555%07d","triggerMessage":"Message %d","hearWhisperMessage":true}}`, alpha, v, v, v, v)
		},
		read: func(t *testing.T, h *harness) []string {
			it := h.item(t, key("VOICEACTION#demoAgtAlpha00000001#demoActAlphaCallTransfer"))
			p, _ := it["actionParameters"].(map[string]any)
			return []string{fmt.Sprintf("%v|%v|%v|%v", it["name"], p["triggerPrompt"], p["transferToValue"], p["triggerMessage"])}
		},
		want: func(v int) []string {
			return []string{fmt.Sprintf("Transfer v%d|Prompt %d|+1555%07d|Message %d", v, v, v, v)}
		},
	},
	{
		// Several items, written in one transaction: all three prices hold
		// one version.
		name: "an inventory update of three prices",
		request: func(v int) (string, string, string) {
			var items []string
			for k, id := range inventoryPrices {
				items = append(items, fmt.Sprintf(`{"priceId":%q,"availableQuantity":%d,"allowOutOfStockPurchases":%t}`, id, v*10+k, (v+k)%2 == 0))
			}
			return "POST", "/products/inventory", fmt.Sprintf(`{"altId":%q,"altType":"account","items":[%s]}`, alpha, strings.Join(items, ","))
		},
		read: func(t *testing.T, h *harness) []string {
			var out []string
			for _, id := range inventoryPrices {
				it := h.item(t, key("PRICE#"+id))
				out = append(out, fmt.Sprintf("%v|%v", it["availableQuantity"], it["allowOutOfStockPurchases"]))
			}
			return out
		},
		want: func(v int) []string {
			var out []string
			for k := range inventoryPrices {
				out = append(out, fmt.Sprintf("%d|%t", v*10+k, (v+k)%2 == 0))
			}
			return out
		},
	},
}

// writerResult is what one sequential writer saw.
type writerResult struct {
	acked       int // last acknowledged version
	interrupted int // the version that failed (0: none)
	failStatus  int
}

func TestAWriteInterruptedByTheOutageLeavesTheOldOrTheNewRecordNeverAMix(t *testing.T) {
	h := newHarness(t)
	results := make([]writerResult, len(records))
	var firstAck sync.WaitGroup
	firstAck.Add(len(records))
	var wg sync.WaitGroup
	for i, rec := range records {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acked := false
			// Each writer writes version after version until one fails.
			for v := 1; v < 100000; v++ {
				method, path, body := rec.request(v)
				a := h.call(t, method, path, body)
				if a.status >= 200 && a.status < 300 {
					results[i].acked = v
					if !acked {
						acked = true
						firstAck.Done()
					}
					continue
				}
				results[i].interrupted, results[i].failStatus = v, a.status
				if !acked {
					firstAck.Done()
				}
				return
			}
		}()
	}
	firstAck.Wait()
	time.Sleep(150 * time.Millisecond) // writes in flight on every record
	h.proxy.down()                     // connections in flight break: some writes applied, some not
	wg.Wait()
	h.proxy.up(t)

	applied, notApplied := 0, 0
	for i, rec := range records {
		res := results[i]
		t.Run(rec.name+" is the last acknowledged version or the interrupted one, whole", func(t *testing.T) {
			require.Positive(t, res.acked, "the writer had written before the outage")
			require.Equal(t, http.StatusServiceUnavailable, res.failStatus, "the outage answered 503")
			got := rec.read(t, h)
			old, interrupted := rec.want(res.acked), rec.want(res.interrupted)
			assert.Contains(t, [][]string{old, interrupted}, got, "every item of the record from one version")
			if slices.Equal(got, interrupted) {
				applied++
			} else {
				notApplied++
			}
		})
		t.Run(rec.name+" is complete after the client sends the interrupted write again", func(t *testing.T) {
			method, path, body := rec.request(res.interrupted)
			a := h.call(t, method, path, body)
			require.True(t, a.status >= 200 && a.status < 300, "%d %s", a.status, a.body)
			assert.Equal(t, rec.want(res.interrupted), rec.read(t, h))
		})
	}
	t.Logf("writes cut by the outage: %d had been applied, %d had not", applied, notApplied)
}

// A create is one transaction with its event and a ClientRequestToken, so
// the client marks it idempotent (markIdempotentWrites): an answer lost on
// the way back is retried with the same token, which DynamoDB answers
// without writing again. The caller gets its 201 and one template.
func TestACreateWhoseAnswerIsLostIsRetriedAndStoredOnceNotTwice(t *testing.T) {
	h := newHarness(t)
	title := "Lost answer " + strconv.FormatInt(time.Now().UnixNano(), 36)
	body := fmt.Sprintf(`{"locationId":%q,"type":"html","title":%q,"name":"n","builderVersion":"2","parentId":"demoFldAlpha00000002","isPlainText":false}`, alpha, title)

	// The engine stores the template and its event; its answer never arrives.
	h.proxy.cutNextAnswer("TransactWriteItems")
	a := h.call(t, "POST", "/emails/builder", body)
	require.Equal(t, http.StatusCreated, a.status, "the retry with the same request token answers: %s", a.body)
	assert.False(t, h.proxy.takeCut("TransactWriteItems"), "the answer was cut once")

	stored := 0
	for _, it := range h.partition(t) {
		if it["title"] == title {
			stored++
		}
	}
	assert.Equal(t, 1, stored, "the write that was applied is stored once: no retry wrote it again under a fresh id")
}
