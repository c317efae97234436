package storage_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/storage"
)

// The examples use the table an area is given (wiring.Deps.Table), built once
// per process. They compile but do not run: they need an engine.
var (
	ctx   = context.Background()
	table *storage.Table
)

// Coupon is an account's record, as stored and as answered: it declares no
// key.
type Coupon struct {
	ID        string `dynamodbav:"id" json:"_id"`
	AltID     string `dynamodbav:"altId" json:"altId"`
	Name      string `dynamodbav:"name" json:"name"`
	UsesLeft  int    `dynamodbav:"usesLeft" json:"usesLeft"`
	UpdatedAt string `dynamodbav:"updatedAt" json:"updatedAt"`
}

// An area keeps its records of one kind in AccountItems: the one place
// their key is built, and reads that never leave the caller's account.
func ExampleAccountItems() {
	coupons := storage.NewAccountItems(table, "COUPON#", func(c Coupon) (string, string) { return c.AltID, c.ID })

	c, err := coupons.Get(ctx, "acct1", "cpn1") // nil when acct1 has no such coupon
	if err != nil {
		return // already an API error (503 or 500): return it as it is
	}
	if c == nil {
		_ = apierror.NotFound("Coupon %s was not found", "cpn1")
	}
	all, _ := coupons.List(ctx, "acct1") // ordered by id
	created, _ := coupons.Create(ctx, Coupon{ID: "cpn2", AltID: "acct1", Name: "Spring"})
	deleted, _ := coupons.Delete(ctx, "acct1", "cpn1")
	fmt.Println(len(all), created, deleted)
}

// Get reads one item, strongly consistent, into any struct with dynamodbav
// tags (attributes it does not declare are ignored).
func ExampleGet() {
	key := storage.Key{PK: storage.AccountPK("acct1"), SK: "COUPON#cpn1"}
	c, err := storage.Get[Coupon](ctx, table, key)
	fmt.Println(c, err)
}

// A conditional write: the condition comes from the expression builder, and
// Applied tells a lost condition (false) from a failure (an error).
func ExampleTable_Put() {
	record := storage.Keyed{Key: storage.Key{PK: storage.AccountPK("acct1"), SK: "COUPON#cpn3"}, Record: Coupon{ID: "cpn3", AltID: "acct1"}}
	created, err := storage.Applied(table.Put(ctx, record, storage.ItemAbsent()))
	if err == nil && !created {
		_ = apierror.Invalid("id cpn3 is already used by a coupon of this account")
	}

	notExpired := expression.Name("usesLeft").GreaterThan(expression.Value(0))
	err = table.Put(ctx, record, &notExpired)
	fmt.Println(storage.IsConditionFailed(err))
}

// A read-modify-write: change runs on the stored record, once per attempt,
// and the write lands only if nobody wrote in between. A rule the stored
// record breaks ends the update with its error; storage.ErrNoChange ends it
// without a write.
func ExampleUpdateVersioned() {
	key := storage.Key{PK: storage.AccountPK("acct1"), SK: "COUPON#cpn1"}
	c, err := storage.UpdateVersioned(ctx, table, key, func(c *Coupon) error {
		if c.UsesLeft == 0 {
			return apierror.Invalid("the coupon has no uses left")
		}
		c.UsesLeft--
		c.UpdatedAt = "2026-06-15T12:00:03.000Z"
		return nil
	})
	switch {
	case errors.Is(err, storage.ErrContention): // a 503 with Retry-After: return it
	case err == nil && c == nil: // no such coupon: the operation's 404
	}
}

// Demo data is checked whole before anything is written: Load gathers
// checked records of one or more kinds, Write writes them or the first
// refusal.
func ExampleLoad() {
	coupons := storage.NewAccountItems(table, "COUPON#", func(c Coupon) (string, string) { return c.AltID, c.ID })
	var l storage.Loading
	storage.Load(&l, coupons, []Coupon{{ID: "cpn1", AltID: "acct1", Name: "Spring"}}, func(c *Coupon) error {
		if c.Name == "" {
			return errors.New("name is required")
		}
		return nil
	})
	fmt.Println(l.Write(ctx, table))
}
