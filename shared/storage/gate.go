package storage

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Admission is a request's admission: the count against its account's rate
// limits and the check that its token is not revoked. The pipeline decides
// it while the request's handler already runs, so that a read-then-write
// operation costs two round trips instead of three; handlers see nothing of
// it but this:
//
//   - reads go ahead: they have no effect, and what they find reaches the
//     client only through the answer, which waits for admission too;
//   - writes wait: every write through the table an area's handlers get
//     (wiring.Deps.Table, made by GateWrites) first waits for the admission of
//     the request it serves, and fails with the refusal, unsent, when the
//     request is refused.
//
// So a refused request (429, a revoked token's 401, 503) has no effect.
type Admission interface {
	// Wait blocks until the request is admitted (nil) or refused (the
	// refusal, an *apierror.Error).
	Wait() error
}

type admissionKey struct{}

// WithAdmission returns ctx carrying the request's admission, for writes
// through a GateWrites table to wait for. The pipeline calls it once per
// request, before the handler runs.
func WithAdmission(ctx context.Context, a Admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, a)
}

// awaitAdmission waits for the admission ctx carries; without one (seeding,
// tools, the pipeline's own writes) there is nothing to wait for.
func awaitAdmission(ctx context.Context) error {
	if a, ok := ctx.Value(admissionKey{}).(Admission); ok {
		return a.Wait()
	}
	return nil
}

// GateWrites returns t as the areas' handlers get it: the same table, whose
// every write (Put, Update, Delete, BatchPut, and the PutItem, UpdateItem,
// DeleteItem, BatchWriteItem and TransactWriteItems calls made on its DB
// directly) first waits for the Admission its context carries. Reads never
// wait.
func GateWrites(t *Table) *Table { return &Table{DB: gated{next: t.DB}, Name: t.Name} }

// gated is a client whose writes wait for admission. It names every method
// of API rather than embedding it, so a method added to API does not
// compile here until someone decides whether it waits; TestEveryWriteWaits
// checks the decision (every method but the reads must wait).
type gated struct{ next API }

var _ API = gated{}

func (g gated) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return g.next.GetItem(ctx, in, opts...)
}

func (g gated) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return g.next.Query(ctx, in, opts...)
}

func (g gated) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return g.next.BatchGetItem(ctx, in, opts...)
}

func (g gated) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return g.next.TransactGetItems(ctx, in, opts...)
}

func (g gated) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if err := awaitAdmission(ctx); err != nil {
		return nil, err
	}
	return g.next.PutItem(ctx, in, opts...)
}

func (g gated) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if err := awaitAdmission(ctx); err != nil {
		return nil, err
	}
	return g.next.UpdateItem(ctx, in, opts...)
}

func (g gated) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	if err := awaitAdmission(ctx); err != nil {
		return nil, err
	}
	return g.next.DeleteItem(ctx, in, opts...)
}

func (g gated) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if err := awaitAdmission(ctx); err != nil {
		return nil, err
	}
	return g.next.BatchWriteItem(ctx, in, opts...)
}

func (g gated) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if err := awaitAdmission(ctx); err != nil {
		return nil, err
	}
	return g.next.TransactWriteItems(ctx, in, opts...)
}
