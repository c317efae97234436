package perf

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/storage"
)

// Stub is an in-memory stand-in for DynamoDB that answers at once, for
// benchmarks of the code in front of storage. It keeps items by key, ignores
// conditions and filter expressions, and answers a Query with the items of
// the partition its key condition names (on GSI1 when asked), in sort-key
// order, from ExclusiveStartKey on, at most Limit. Admission's update of a
// rate state item answers as a first request in its window would.
type Stub struct {
	mu    sync.RWMutex
	items map[string]map[string]types.AttributeValue // "PK\x00SK" -> item
	// index holds, per partition key attribute, the sorted partitions;
	// writes drop it.
	index map[string]map[string][]map[string]types.AttributeValue
	// frozen keeps new items out (overwrites still apply): a benchmark
	// that creates a record every iteration must not grow the data it reads.
	frozen bool
}

// Freeze stops the stub from storing items under new keys.
func (s *Stub) Freeze() {
	s.mu.Lock()
	s.frozen = true
	s.mu.Unlock()
}

var _ storage.API = (*Stub)(nil)

// NewStub returns an empty stub.
func NewStub() *Stub {
	return &Stub{items: map[string]map[string]types.AttributeValue{}, index: map[string]map[string][]map[string]types.AttributeValue{}}
}

func str(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

func keyOf(item map[string]types.AttributeValue) string {
	return str(item[storage.AttrPK]) + "\x00" + str(item[storage.AttrSK])
}

func (s *Stub) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return &dynamodb.GetItemOutput{Item: s.items[keyOf(in.Key)]}, nil
}

func (s *Stub) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	s.mu.Lock()
	k := keyOf(in.Item)
	old, exists := s.items[k]
	if exists || !s.frozen {
		s.items[k] = in.Item
		// The index holds items: rebuild it unless this overwrite keeps
		// every key attribute (then patch the item in place).
		if !exists || str(old[storage.AttrGSI1PK]) != str(in.Item[storage.AttrGSI1PK]) || str(old[storage.AttrGSI1SK]) != str(in.Item[storage.AttrGSI1SK]) {
			clear(s.index)
		} else {
			s.patchIndex(old, in.Item)
		}
	}
	s.mu.Unlock()
	return &dynamodb.PutItemOutput{}, nil
}

// equality matches "#name = :value" in a key condition.
var equality = regexp.MustCompile(`(#\w+) = (:\w+)`)

var admitted = map[string]types.AttributeValue{
	"winCount": &types.AttributeValueMemberN{Value: "1"},
	"dayCount": &types.AttributeValueMemberN{Value: "1"},
	"bornAt":   &types.AttributeValueMemberN{Value: "1"},
}

func (s *Stub) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if strings.HasPrefix(str(in.Key[storage.AttrPK]), "RATE#") {
		return &dynamodb.UpdateItemOutput{Attributes: admitted}, nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return &dynamodb.UpdateItemOutput{Attributes: s.items[keyOf(in.Key)]}, nil
}

func (s *Stub) DeleteItem(_ context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	// Kept, so that the same delete can be benchmarked again.
	return &dynamodb.DeleteItemOutput{}, nil
}

func (s *Stub) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	pkAttr, skAttr := storage.AttrPK, storage.AttrSK
	if in.IndexName != nil {
		pkAttr, skAttr = storage.AttrGSI1PK, storage.AttrGSI1SK
	}
	var pk string
	if in.KeyConditionExpression != nil {
		for _, m := range equality.FindAllStringSubmatch(*in.KeyConditionExpression, -1) {
			if in.ExpressionAttributeNames[m[1]] == pkAttr {
				pk = str(in.ExpressionAttributeValues[m[2]])
			}
		}
	}
	found := s.partition(pkAttr, skAttr, pk)
	if in.KeyConditionExpression != nil {
		found = sortKeyRange(found, skAttr, *in.KeyConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	}
	forward := in.ScanIndexForward == nil || *in.ScanIndexForward
	if !forward {
		rev := make([]map[string]types.AttributeValue, len(found))
		for i, item := range found {
			rev[len(found)-1-i] = item
		}
		found = rev
	}
	if in.ExclusiveStartKey != nil {
		after := str(in.ExclusiveStartKey[skAttr]) + "\x00" + str(in.ExclusiveStartKey[storage.AttrSK])
		rest := found[:0:0]
		for i, item := range found {
			if str(item[skAttr])+"\x00"+str(item[storage.AttrSK]) == after {
				rest = found[i+1:]
				break
			}
		}
		found = rest
	}
	out := &dynamodb.QueryOutput{}
	if in.Limit != nil && int(*in.Limit) < len(found) {
		found = found[:*in.Limit]
		last := found[len(found)-1]
		out.LastEvaluatedKey = map[string]types.AttributeValue{pkAttr: last[pkAttr], skAttr: last[skAttr], storage.AttrPK: last[storage.AttrPK], storage.AttrSK: last[storage.AttrSK]}
	}
	out.Count = int32(len(found))
	if in.Select != types.SelectCount {
		out.Items = found
	}
	return out, nil
}

var (
	beginsWith = regexp.MustCompile(`begins_with \((#\w+), (:\w+)\)`)
	between    = regexp.MustCompile(`(#\w+) BETWEEN (:\w+) AND (:\w+)`)
	compare    = regexp.MustCompile(`(#\w+) (<=|>=|<|>|=) (:\w+)`)
)

// sortKeyRange narrows a sorted partition to the key condition's sort-key
// range (begins_with, BETWEEN, comparisons), by binary search.
func sortKeyRange(items []map[string]types.AttributeValue, skAttr, cond string, names map[string]string, values map[string]types.AttributeValue) []map[string]types.AttributeValue {
	sk := func(i int) string { return str(items[i][skAttr]) }
	lo, hi := 0, len(items)
	from := func(v string, inclusive bool) {
		lo = max(lo, sort.Search(len(items), func(i int) bool { return sk(i) > v || (inclusive && sk(i) == v) }))
	}
	to := func(v string, inclusive bool) {
		hi = min(hi, sort.Search(len(items), func(i int) bool { return sk(i) > v || (!inclusive && sk(i) == v) }))
	}
	for _, m := range beginsWith.FindAllStringSubmatch(cond, -1) {
		if names[m[1]] == skAttr {
			p := str(values[m[2]])
			from(p, true)
			to(p+"\U0010FFFF", true)
		}
	}
	for _, m := range between.FindAllStringSubmatch(cond, -1) {
		if names[m[1]] == skAttr {
			from(str(values[m[2]]), true)
			to(str(values[m[3]]), true)
		}
	}
	for _, m := range compare.FindAllStringSubmatch(cond, -1) {
		if names[m[1]] != skAttr {
			continue
		}
		v := str(values[m[3]])
		switch m[2] {
		case "=":
			from(v, true)
			to(v, true)
		case ">":
			from(v, false)
		case ">=":
			from(v, true)
		case "<":
			to(v, false)
		case "<=":
			to(v, true)
		}
	}
	if lo >= hi {
		return nil
	}
	return items[lo:hi]
}

// patchIndex replaces old by item in the built partitions, found by binary
// search (they are sorted by their sort key attribute, then SK).
func (s *Stub) patchIndex(old, item map[string]types.AttributeValue) {
	for attr, idx := range s.index {
		skAttr := storage.AttrSK
		if attr == storage.AttrGSI1PK {
			skAttr = storage.AttrGSI1SK
		}
		part := idx[str(old[attr])]
		wantSK, wantKey := str(old[skAttr]), str(old[storage.AttrSK])
		i := sort.Search(len(part), func(i int) bool {
			a := str(part[i][skAttr])
			return a > wantSK || (a == wantSK && str(part[i][storage.AttrSK]) >= wantKey)
		})
		for ; i < len(part) && str(part[i][skAttr]) == wantSK; i++ {
			if str(part[i][storage.AttrSK]) == wantKey && str(part[i][storage.AttrPK]) == str(old[storage.AttrPK]) {
				part[i] = item
			}
		}
	}
}

// partition returns the items whose pkAttr is pk, sorted by skAttr then
// SK, from an index built on first use after a write.
func (s *Stub) partition(pkAttr, skAttr, pk string) []map[string]types.AttributeValue {
	s.mu.RLock()
	idx := s.index[pkAttr]
	s.mu.RUnlock()
	if idx == nil {
		s.mu.Lock()
		if idx = s.index[pkAttr]; idx == nil {
			idx = map[string][]map[string]types.AttributeValue{}
			for _, item := range s.items {
				if p := str(item[pkAttr]); p != "" {
					idx[p] = append(idx[p], item)
				}
			}
			for _, items := range idx {
				sort.Slice(items, func(i, j int) bool {
					a, b := str(items[i][skAttr]), str(items[j][skAttr])
					if a != b {
						return a < b
					}
					return str(items[i][storage.AttrSK]) < str(items[j][storage.AttrSK])
				})
			}
			s.index[pkAttr] = idx
		}
		s.mu.Unlock()
	}
	return idx[pk]
}

func (s *Stub) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for table, ka := range in.RequestItems {
		for _, k := range ka.Keys {
			if item := s.items[keyOf(k)]; item != nil {
				out.Responses[table] = append(out.Responses[table], item)
			}
		}
	}
	return out, nil
}

func (s *Stub) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, reqs := range in.RequestItems {
		for _, r := range reqs {
			if r.PutRequest != nil {
				s.items[keyOf(r.PutRequest.Item)] = r.PutRequest.Item
			}
			clear(s.index)
		}
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// TransactWriteItems applies the transaction's puts as PutItem does; its
// updates, deletes and condition checks change nothing, like UpdateItem's and
// DeleteItem's.
func (s *Stub) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, w := range in.TransactItems {
		if w.Put != nil {
			_, _ = s.PutItem(ctx, &dynamodb.PutItemInput{TableName: w.Put.TableName, Item: w.Put.Item})
		}
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

func (s *Stub) TransactGetItems(_ context.Context, in *dynamodb.TransactGetItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := &dynamodb.TransactGetItemsOutput{Responses: make([]types.ItemResponse, len(in.TransactItems))}
	for i, g := range in.TransactItems {
		if g.Get != nil {
			out.Responses[i].Item = s.items[keyOf(g.Get.Key)]
		}
	}
	return out, nil
}
