package payments

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
