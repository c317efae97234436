package payments

import (
	"context"

	"github.com/bizplatform/api/shared/storage"
)

// Discount types and statuses of a coupon.
const (
	DiscountPercentage = "percentage"
	DiscountAmount     = "amount"

	CouponScheduled = "scheduled"
	CouponActive    = "active"
	CouponExpired   = "expired"
)

// Coupon is a promotional coupon of an account.
type Coupon struct {
	ID            string  `dynamodbav:"id" json:"_id"`
	AltID         string  `dynamodbav:"altId" json:"altId"`
	AltType       string  `dynamodbav:"altType" json:"altType"`
	Name          string  `dynamodbav:"name" json:"name"`
	Code          string  `dynamodbav:"code" json:"code"`
	DiscountType  string  `dynamodbav:"discountType" json:"discountType"`
	DiscountValue float64 `dynamodbav:"discountValue" json:"discountValue"`
	Status        string  `dynamodbav:"status" json:"status"`
	StartDate     string  `dynamodbav:"startDate" json:"startDate"`
	// EndDate is empty for a coupon that never expires.
	EndDate string `dynamodbav:"endDate,omitempty" json:"endDate,omitempty"`
	// UsageLimit is the number of redemptions allowed; nil means unlimited.
	UsageLimit            *int     `dynamodbav:"usageLimit,omitempty" json:"usageLimit,omitempty"`
	UsageCount            int      `dynamodbav:"usageCount" json:"usageCount"`
	LimitPerCustomer      bool     `dynamodbav:"limitPerCustomer" json:"limitPerCustomer"`
	ProductIDs            []string `dynamodbav:"productIds" json:"productIds"`
	ApplyToFuturePayments bool     `dynamodbav:"applyToFuturePayments" json:"applyToFuturePayments"`
	CreatedAt             string   `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt             string   `dynamodbav:"updatedAt" json:"updatedAt"`
}

// Coupons are stored by id in their account's partition: a coupon id of
// another account is simply not found.
func couponKey(accountID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "COUPON#" + id}
}

type couponItem struct {
	storage.Key
	Coupon
}

func newCouponItem(c Coupon) couponItem {
	return couponItem{Key: couponKey(c.AltID, c.ID), Coupon: c}
}

// GetCoupon returns the account's coupon, or nil when it has none with id.
func (s *Records) GetCoupon(ctx context.Context, accountID, id string) (*Coupon, error) {
	item, err := storage.Get[couponItem](ctx, s.table, couponKey(accountID, id))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Coupon, nil
}

// DeleteCoupon permanently deletes the account's coupon. It is one
// conditional DeleteItem, so of concurrent deletes exactly one reports
// true; it reports false when the account has no coupon with id.
func (s *Records) DeleteCoupon(ctx context.Context, accountID, id string) (bool, error) {
	err := s.table.Delete(ctx, couponKey(accountID, id), storage.ItemExists())
	if storage.IsConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}
