#!/usr/bin/env python3
"""Generates internal/demo/data/payments.json: the demo coupons and the demo
white-label payment provider.

Deterministic: running it again gives the same file. Ids are fixed and
readable: demoCpn<Account><n> for coupons, demoWlp<Account><n> for providers.
"""
import datetime
import json

ALPHA, BRAVO = "demoLocAlpha00000001", "demoLocBravo00000002"

# (name, code, discountType, discountValue, status, startDate, endDate,
#  usageLimit, usageCount, limitPerCustomer, applyToFuturePayments)
ALPHA_COUPONS = [
    ("New Patient Welcome", "WELCOME10", "percentage", 10, "active", "2025-01-01", None, None, 57, True, False),
    ("Spring Whitening Promo", "SPRING25", "amount", 25, "expired", "2025-03-01", "2025-05-31", 100, 100, True, False),
    ("Family Plan Discount", "FAMILY15", "percentage", 15, "active", "2025-02-15", "2026-12-31", None, 23, False, True),
    ("Cleaning Special", "CLEAN50", "amount", 50, "active", "2025-06-01", "2026-12-31", 200, 81, True, False),
    ("Referral Reward", "REFER20", "percentage", 20, "active", "2025-04-10", None, None, 12, True, False),
    ("New Year Smile", "SMILE2027", "amount", 30, "scheduled", "2027-01-01", "2027-01-31", 150, 0, True, False),
    ("Black Friday Whitening", "BLACKFRI40", "percentage", 40, "expired", "2024-11-29", "2024-12-02", 75, 75, True, False),
    ("Student Discount", "STUDENT10", "percentage", 10, "active", "2025-09-01", "2026-08-31", None, 9, False, True),
    ("Senior Care", "SENIOR15", "percentage", 15, "active", "2025-01-15", None, None, 31, False, True),
    ("Aligner Kickoff", "ALIGN300", "amount", 300, "scheduled", "2027-03-01", "2027-06-30", 20, 0, True, False),
    ("Checkup Reminder", "CHECKUP5", "amount", 5, "expired", "2025-01-01", "2025-03-31", None, 44, True, False),
    ("Loyalty Thank-You", "LOYAL12", "percentage", 12, "active", "2025-07-01", "2026-12-31", 500, 140, False, True),
]
BRAVO_COUPONS = [
    ("First Session", "PHYSIO20", "percentage", 20, "active", "2025-02-01", None, None, 18, True, False),
    ("Recovery Package", "RECOVER15", "amount", 15, "active", "2025-05-01", "2026-10-31", 60, 7, False, False),
]


def ts(day, hour=9):
    return f"{day}T{hour:02d}:00:00.000Z"


def shift(day, days):
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=days)).isoformat()


def coupons(account, short, rows):
    out = []
    for i, (name, code, dtype, value, status, start, end, limit, used, per_cust, future) in enumerate(rows, 1):
        created = min(shift(start, -14), "2025-10-20")
        c = {
            "_id": f"demoCpn{short}{i:08d}",
            "altId": account,
            "altType": "account",
            "name": name,
            "code": code,
            "discountType": dtype,
            "discountValue": value,
            "status": status,
            "startDate": ts(start, 0),
        }
        if end:
            c["endDate"] = ts(end, 23).replace(":00:00.000Z", ":59:59.000Z")
        if limit is not None:
            c["usageLimit"] = limit
        c.update({
            "usageCount": used,
            "limitPerCustomer": per_cust,
            "productIds": [],
            "applyToFuturePayments": future,
            # Created two weeks before it starts (scheduled coupons: in
            # autumn 2025, before the dataset was made), edited a day later.
            "createdAt": ts(created, 10),
            "updatedAt": ts(shift(created, 1), 16),
        })
        out.append(c)
    return out


data = {
    "coupons": coupons(ALPHA, "Alpha", ALPHA_COUPONS) + coupons(BRAVO, "Bravo", BRAVO_COUPONS),
    "providers": [{
        "_id": "demoWlpAlpha00000001",
        "altId": ALPHA,
        "altType": "account",
        "uniqueName": "alpha-card-gateway",
        "title": "Alpha Card Payments",
        "provider": "nmi",
        "description": "Card payments for Alpha Dental Care, processed through the practice's NMI gateway.",
        "imageUrl": "https://assets.example.com/payments/alpha-card-gateway.png",
        "createdAt": "2025-02-03T14:20:11.000Z",
        "updatedAt": "2025-02-03T14:20:11.000Z",
    }],
}

with open("internal/demo/data/payments.json", "w") as f:
    json.dump(data, f, indent=1)
    f.write("\n")
