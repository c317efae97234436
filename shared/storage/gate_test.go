package storage

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refused is an admission the pipeline has refused.
type refused struct{ err error }

func (r refused) Wait() error { return r.err }

var _ Admission = refused{}

// unreachable stands for the DynamoDB client behind the gate: its methods
// are those of a nil API, so reaching any of them panics, which the test
// reads as "the call went through". No call is made to an engine.
type unreachable struct{ API }

// The reads of API: everything else writes, and must wait. A method added
// to API is a write until it is named here.
var reads = map[string]bool{"GetItem": true, "Query": true, "BatchGetItem": true, "TransactGetItems": true}

// reachesClient calls method on db with a zero input under ctx and
// reports whether the call got through to the client behind it, and the
// error the gate answered when it did not.
func reachesClient(ctx context.Context, db API, method string) (reached bool, err error) {
	m := reflect.ValueOf(db).MethodByName(method)
	in := reflect.New(m.Type().In(1).Elem()) // *dynamodb.XxxInput
	defer func() {
		if recover() != nil {
			reached = true
		}
	}()
	out := m.Call([]reflect.Value{reflect.ValueOf(ctx), in})
	err, _ = out[1].Interface().(error)
	return false, err
}

func TestEveryWriteWaits(t *testing.T) {
	refusal := errors.New("refused: the account is over its limit")
	ctx := WithAdmission(context.Background(), refused{refusal})
	db := GateWrites(&Table{DB: unreachable{}, Name: "t"}).DB

	api := reflect.TypeFor[API]()
	require.Equal(t, api.NumMethod(), reflect.TypeOf(db).NumMethod(), "the gate names every method of API and no other")
	for i := range api.NumMethod() {
		name := api.Method(i).Name
		if reads[name] {
			t.Run("a refused request's "+name+" still reads", func(t *testing.T) {
				reached, _ := reachesClient(ctx, db, name)
				assert.True(t, reached)
			})
			continue
		}
		t.Run("a refused request's "+name+" fails with the refusal, unsent", func(t *testing.T) {
			reached, err := reachesClient(ctx, db, name)
			assert.False(t, reached, "the write reached the client")
			assert.ErrorIs(t, err, refusal)
		})
		t.Run("without an admission "+name+" goes through", func(t *testing.T) {
			reached, _ := reachesClient(context.Background(), db, name)
			assert.True(t, reached, "seeding and tools carry no admission and must not wait")
		})
	}
}
