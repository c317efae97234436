package perf

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// The capacity a call consumes, measured from outside. DynamoDB Local
// reports it (ReturnConsumedCapacity) for single-item and batch calls as
// DynamoDB does, but not for transactions: it answers 4 units for any
// TransactWriteItems or TransactGetItems, whatever they hold. So the proxy
// sizes a transaction's items itself (reads of them straight from the
// engine, never recorded) and applies DynamoDB's published rule: a
// transactional write costs 2 units per KB (rounded up) of the larger of
// the item before and after, a transactional read 2 units per 4 KB. A
// canceled transaction is not counted, and neither is the capacity of a
// failed single write beyond its minimum of one unit.

// capacityOps are the operations that report consumed capacity.
var capacityOps = map[string]bool{
	"GetItem": true, "PutItem": true, "UpdateItem": true, "DeleteItem": true, "Query": true, "Scan": true,
	"BatchGetItem": true, "BatchWriteItem": true,
}

type callKey struct{}

// askCapacity adds ReturnConsumedCapacity TOTAL to a DynamoDB request.
func askCapacity(r *http.Request) {
	body := readBody(r)
	var in map[string]json.RawMessage
	if json.Unmarshal(body, &in) == nil {
		in["ReturnConsumedCapacity"] = json.RawMessage(`"TOTAL"`)
		if b, err := json.Marshal(in); err == nil {
			body = b
		}
	}
	setBody(r, body)
}

func readBody(r *http.Request) []byte {
	body, _ := io.ReadAll(r.Body)
	_ = r.Body.Close()
	return body
}

func setBody(r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
}

// consumed is DynamoDB's ConsumedCapacity: one object, or one per table.
type consumed struct {
	ReadCapacityUnits, WriteCapacityUnits, CapacityUnits float64
}

// readCapacity records the capacity an answer reports on its call.
func (c *CountingProxy) readCapacity(resp *http.Response) error {
	call, ok := resp.Request.Context().Value(callKey{}).(*Call)
	if !ok {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return err
	}
	var out struct {
		Type             string `json:"__type"`
		ConsumedCapacity json.RawMessage
		// A list of items in TransactGetItems, a map of tables in
		// BatchGetItem: decoded only where it is the list.
		Responses json.RawMessage
	}
	if json.Unmarshal(body, &out) != nil {
		return nil
	}
	switch {
	case call.Op == "TransactGetItems":
		var items []struct{ Item map[string]json.RawMessage }
		if resp.StatusCode == http.StatusOK && json.Unmarshal(out.Responses, &items) == nil {
			for _, r := range items {
				call.RCU += 2 * math.Ceil(float64(itemSize(r.Item))/4096)
			}
		}
		return nil
	case call.Op == "TransactWriteItems":
		return nil // sized by finishTransaction
	case strings.HasSuffix(out.Type, "ConditionalCheckFailedException") && isWrite(call.Op):
		// DynamoDB charges a write whose condition fails (at least one
		// unit); the engine reports nothing with the failure.
		call.WCU++
		return nil
	case len(out.ConsumedCapacity) == 0:
		return nil
	}
	var list []consumed
	if json.Unmarshal(out.ConsumedCapacity, &list) != nil {
		var one consumed
		if json.Unmarshal(out.ConsumedCapacity, &one) != nil {
			return nil
		}
		list = []consumed{one}
	}
	for _, cc := range list {
		r, w := cc.ReadCapacityUnits, cc.WriteCapacityUnits
		if r == 0 && w == 0 { // TOTAL may give only the sum
			if isWrite(call.Op) {
				w = cc.CapacityUnits
			} else {
				r = cc.CapacityUnits
			}
		}
		call.RCU += r
		call.WCU += w
	}
	return nil
}

func isWrite(op string) bool {
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		return true
	}
	return false
}

// txSizes are a transaction's writes: their keys and their items before
// it.
type txSizes struct {
	writes []txWrite
}

type txWrite struct {
	table  string
	key    map[string]json.RawMessage
	before sized
}

// sized is an item as the proxy prices it: its size and its index key.
type sized struct {
	size int
	// index is the item's GSI1 key ("" when it is not in the index).
	index string
}

// sizeTransaction reads the size of every item a TransactWriteItems
// writes or checks, before it is forwarded (nil for other calls).
func (c *CountingProxy) sizeTransaction(r *http.Request, op string) *txSizes {
	if op != "TransactWriteItems" {
		return nil
	}
	body := readBody(r)
	setBody(r, body)
	tx := &txSizes{}
	var in struct {
		TransactItems []map[string]struct {
			TableName string
			Key       map[string]json.RawMessage
			Item      map[string]json.RawMessage
		}
	}
	if json.Unmarshal(body, &in) != nil {
		return nil
	}
	for _, item := range in.TransactItems {
		for kind, w := range item {
			tw := txWrite{table: w.TableName, key: w.Key}
			if kind == "Put" {
				tw.key = map[string]json.RawMessage{"PK": w.Item["PK"], "SK": w.Item["SK"]}
			}
			tw.before = c.sideItem(tw.table, tw.key)
			tx.writes = append(tx.writes, tw)
		}
	}
	return tx
}

// finishTransaction adds an applied transaction's write units: per item, 2
// per KB of the larger of before and after (1 when WithoutEvents left it
// the one write), and with Indexes the index's.
func (c *CountingProxy) finishTransaction(call *Call, tx *txSizes) {
	per := 2.0
	if c.WithoutEvents && len(tx.writes) == 1 {
		per = 1
	}
	for _, w := range tx.writes {
		after := c.sideItem(w.table, w.key)
		call.WCU += per * kb(max(w.before.size, after.size, 1))
		if c.Indexes {
			call.WCU += indexUnits(w.before, after)
		}
	}
}

// kb is a size in KB, rounded up: the unit of write capacity.
func kb(size int) float64 { return math.Ceil(float64(size) / 1024) }

// indexUnits are the index writes of a table write from before to after
// (DynamoDB's rules: an entry put, updated or deleted is one write of its
// size; a changed key is a delete and a put).
func indexUnits(before, after sized) float64 {
	switch {
	case before.index == "" && after.index == "":
		return 0
	case before.index == "":
		return kb(after.size)
	case after.index == "":
		return kb(before.size)
	case before.index != after.index:
		return kb(before.size) + kb(after.size)
	default:
		return kb(after.size)
	}
}

// sideItem reads the item at key straight from the engine and returns its
// size and index key (zero when there is none).
func (c *CountingProxy) sideItem(table string, key map[string]json.RawMessage) sized {
	body, err := json.Marshal(map[string]any{"TableName": table, "Key": key, "ConsistentRead": true})
	if err != nil {
		return sized{}
	}
	req, err := http.NewRequest(http.MethodPost, c.upstream, bytes.NewReader(body))
	if err != nil {
		return sized{}
	}
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	// DynamoDB Local checks that a request is signed, not the signature.
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := c.side.Do(req)
	if err != nil {
		return sized{}
	}
	defer resp.Body.Close()
	var out struct{ Item map[string]json.RawMessage }
	if json.NewDecoder(resp.Body).Decode(&out) != nil || out.Item == nil {
		return sized{}
	}
	s := sized{size: itemSize(out.Item)}
	if pk, ok := out.Item[storage.AttrGSI1PK]; ok {
		s.index = string(pk) + string(out.Item[storage.AttrGSI1SK])
	}
	return s
}

// dropEvents takes out of a TransactWriteItems request every Put of an
// event (WithoutEvents).
func dropEvents(r *http.Request) {
	body := readBody(r)
	defer func() { setBody(r, body) }()
	var in map[string]json.RawMessage
	var items []map[string]json.RawMessage
	if json.Unmarshal(body, &in) != nil || json.Unmarshal(in["TransactItems"], &items) != nil {
		return
	}
	kept := items[:0]
	for _, it := range items {
		var put struct{ Item map[string]struct{ S string } }
		if raw, ok := it["Put"]; ok && json.Unmarshal(raw, &put) == nil &&
			events.IsEventKey(storage.Key{PK: put.Item[storage.AttrPK].S, SK: put.Item[storage.AttrSK].S}) {
			continue
		}
		kept = append(kept, it)
	}
	raw, err := json.Marshal(kept)
	if err != nil {
		return
	}
	in["TransactItems"] = raw
	if b, err := json.Marshal(in); err == nil {
		body = b
	}
}

// itemSize is an item's size as DynamoDB counts it: each attribute's name
// and value, strings and binary by their bytes, numbers by their digits.
func itemSize(item map[string]json.RawMessage) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(raw json.RawMessage) int {
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return 0
	}
	for typ, val := range v {
		switch typ {
		case "S":
			var s string
			_ = json.Unmarshal(val, &s)
			return len(s)
		case "N":
			var s string
			_ = json.Unmarshal(val, &s)
			digits := len(strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0"))
			return (digits+1)/2 + 1
		case "B":
			var s string
			_ = json.Unmarshal(val, &s)
			b, _ := base64.StdEncoding.DecodeString(s)
			return len(b)
		case "BOOL", "NULL":
			return 1
		case "SS", "NS", "BS", "L":
			var list []json.RawMessage
			_ = json.Unmarshal(val, &list)
			n := 3
			for _, e := range list {
				if typ == "L" {
					n += valueSize(e) + 1
				} else {
					var s string
					_ = json.Unmarshal(e, &s)
					n += len(s)
				}
			}
			return n
		case "M":
			var m map[string]json.RawMessage
			_ = json.Unmarshal(val, &m)
			n := 3
			for name, e := range m {
				n += len(name) + valueSize(e) + 1
			}
			return n
		}
	}
	return 0
}
