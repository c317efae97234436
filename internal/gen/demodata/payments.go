package main

import (
	"fmt"
	"time"

	"github.com/bizplatform/api/internal/gen"
)

// The demo coupons (demoCpn<Account><n>) and the demo white-label payment
// provider (demoWlp<Account><n>).

type coupon struct {
	ID                    string   `json:"_id"`
	AltID                 string   `json:"altId"`
	AltType               string   `json:"altType"`
	Name                  string   `json:"name"`
	Code                  string   `json:"code"`
	DiscountType          string   `json:"discountType"`
	DiscountValue         int      `json:"discountValue"`
	Status                string   `json:"status"`
	StartDate             string   `json:"startDate"`
	EndDate               string   `json:"endDate,omitempty"`
	UsageLimit            *int     `json:"usageLimit,omitempty"`
	UsageCount            int      `json:"usageCount"`
	LimitPerCustomer      bool     `json:"limitPerCustomer"`
	ProductIDs            []string `json:"productIds"`
	ApplyToFuturePayments bool     `json:"applyToFuturePayments"`
	CreatedAt             string   `json:"createdAt"`
	UpdatedAt             string   `json:"updatedAt"`
}

type whitelabelProvider struct {
	ID          string `json:"_id"`
	AltID       string `json:"altId"`
	AltType     string `json:"altType"`
	UniqueName  string `json:"uniqueName"`
	Title       string `json:"title"`
	Provider    string `json:"provider"`
	Description string `json:"description"`
	ImageURL    string `json:"imageUrl"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

// couponRow is a coupon as the table below gives it: an empty end is none,
// a usage limit of 0 is no limit.
type couponRow struct {
	name, code, discountType string
	value                    int
	status, start, end       string
	limit, used              int
	perCustomer, future      bool
}

func couponsOf(acct demoAccount, rows []couponRow) []coupon {
	day := func(d string) time.Time {
		t, err := time.Parse(time.DateOnly, d)
		if err != nil {
			panic(err) // the table's dates are constants
		}
		return t
	}
	at := func(t time.Time, hour int) string {
		return fmt.Sprintf("%sT%02d:00:00.000Z", t.Format(time.DateOnly), hour)
	}
	var out []coupon
	for i, r := range rows {
		// Created two weeks before it starts (scheduled coupons: in autumn
		// 2025, before the dataset was made), edited a day later.
		created := day(r.start).AddDate(0, 0, -14)
		if latest := day("2025-10-20"); created.After(latest) {
			created = latest
		}
		c := coupon{
			ID:                    acct.recordID("Cpn", i+1),
			AltID:                 acct.id,
			AltType:               "account",
			Name:                  r.name,
			Code:                  r.code,
			DiscountType:          r.discountType,
			DiscountValue:         r.value,
			Status:                r.status,
			StartDate:             at(day(r.start), 0),
			UsageCount:            r.used,
			LimitPerCustomer:      r.perCustomer,
			ProductIDs:            []string{},
			ApplyToFuturePayments: r.future,
			CreatedAt:             at(created, 10),
			UpdatedAt:             at(created.AddDate(0, 0, 1), 16),
		}
		if r.end != "" {
			c.EndDate = r.end + "T23:59:59.000Z"
		}
		if r.limit > 0 {
			c.UsageLimit = &r.limit
		}
		out = append(out, c)
	}
	return out
}

func payments() (string, error) {
	coupons := couponsOf(alpha, []couponRow{
		{"New Patient Welcome", "WELCOME10", "percentage", 10, "active", "2025-01-01", "", 0, 57, true, false},
		{"Spring Whitening Promo", "SPRING25", "amount", 25, "expired", "2025-03-01", "2025-05-31", 100, 100, true, false},
		{"Family Plan Discount", "FAMILY15", "percentage", 15, "active", "2025-02-15", "2026-12-31", 0, 23, false, true},
		{"Cleaning Special", "CLEAN50", "amount", 50, "active", "2025-06-01", "2026-12-31", 200, 81, true, false},
		{"Referral Reward", "REFER20", "percentage", 20, "active", "2025-04-10", "", 0, 12, true, false},
		{"New Year Smile", "SMILE2027", "amount", 30, "scheduled", "2027-01-01", "2027-01-31", 150, 0, true, false},
		{"Black Friday Whitening", "BLACKFRI40", "percentage", 40, "expired", "2024-11-29", "2024-12-02", 75, 75, true, false},
		{"Student Discount", "STUDENT10", "percentage", 10, "active", "2025-09-01", "2026-08-31", 0, 9, false, true},
		{"Senior Care", "SENIOR15", "percentage", 15, "active", "2025-01-15", "", 0, 31, false, true},
		{"Aligner Kickoff", "ALIGN300", "amount", 300, "scheduled", "2027-03-01", "2027-06-30", 20, 0, true, false},
		{"Checkup Reminder", "CHECKUP5", "amount", 5, "expired", "2025-01-01", "2025-03-31", 0, 44, true, false},
		{"Loyalty Thank-You", "LOYAL12", "percentage", 12, "active", "2025-07-01", "2026-12-31", 500, 140, false, true},
	})
	coupons = append(coupons, couponsOf(bravo, []couponRow{
		{"First Session", "PHYSIO20", "percentage", 20, "active", "2025-02-01", "", 0, 18, true, false},
		{"Recovery Package", "RECOVER15", "amount", 15, "active", "2025-05-01", "2026-10-31", 60, 7, false, false},
	})...)
	return gen.JSONFile(struct {
		Coupons   []coupon             `json:"coupons"`
		Providers []whitelabelProvider `json:"providers"`
	}{coupons, []whitelabelProvider{{
		ID:          alpha.recordID("Wlp", 1),
		AltID:       alpha.id,
		AltType:     "account",
		UniqueName:  "alpha-card-gateway",
		Title:       "Alpha Card Payments",
		Provider:    "nmi",
		Description: "Card payments for Alpha Dental Care, processed through the practice's NMI gateway.",
		ImageURL:    "https://assets.example.com/payments/alpha-card-gateway.png",
		CreatedAt:   "2025-02-03T14:20:11.000Z",
		UpdatedAt:   "2025-02-03T14:20:11.000Z",
	}}})
}
