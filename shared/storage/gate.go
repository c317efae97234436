package storage

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// The request pipeline admits a request (rate limit, revocation) while the
// handler already reads: reads are free of effects, and their results reach
// the client only through the response, which waits for admission too. A
// write must not happen before admission, so the areas' client waits for
// the request's write gate before every write.

type writeGateKey struct{}

// WithWriteGate returns a context whose writes through a Gated client first
// call wait; a non-nil error from wait fails the write without sending it.
func WithWriteGate(ctx context.Context, wait func() error) context.Context {
	return context.WithValue(ctx, writeGateKey{}, wait)
}

func passGate(ctx context.Context) error {
	if wait, ok := ctx.Value(writeGateKey{}).(func() error); ok {
		return wait()
	}
	return nil
}

// Gated wraps api so that its writes wait for the request's write gate.
func Gated(api API) API { return gated{api} }

type gated struct{ API }

func (g gated) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if err := passGate(ctx); err != nil {
		return nil, err
	}
	return g.API.PutItem(ctx, in, opts...)
}

func (g gated) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if err := passGate(ctx); err != nil {
		return nil, err
	}
	return g.API.UpdateItem(ctx, in, opts...)
}

func (g gated) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	if err := passGate(ctx); err != nil {
		return nil, err
	}
	return g.API.DeleteItem(ctx, in, opts...)
}

func (g gated) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if err := passGate(ctx); err != nil {
		return nil, err
	}
	return g.API.BatchWriteItem(ctx, in, opts...)
}
