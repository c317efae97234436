#!/usr/bin/env python3
"""Generates internal/demo/data/products.json: the demo products and prices.

Deterministic: running it again gives the same file. Ids are 24-character
hexadecimal (the public API's database id format) and readable:

    <account:2><kind:2><zeros:16><serial:4>
    account  a1 = demoLocAlpha00000001, b2 = demoLocBravo00000002
    kind     01 = product, 02 = price
    serial   product: 00PP; price: PPNN (price NN of product PP)

so a1020000000000000000 0301 is Alpha's first price of its third product.
"""
import datetime, json

ACCOUNTS = {"demoLocAlpha00000001": "a1", "demoLocBravo00000002": "b2"}

# (name, description, productType, [(price name, type, amount, trackInventory, qty, allowOOS)])
CATALOGUE = {
    "demoLocAlpha00000001": [
        ("Whitening Kit", "At-home whitening gel and trays", "PHYSICAL", [
            ("Standard kit", "one_time", 49.0, True, 120, False),
            ("Refill gel (3 syringes)", "one_time", 19.5, True, 300, True),
        ]),
        ("Electric Toothbrush", "Rechargeable sonic toothbrush", "PHYSICAL", [
            ("White", "one_time", 89.0, True, 40, False),
            ("Black", "one_time", 89.0, True, 0, False),
            ("Replacement heads (4 pack)", "one_time", 24.0, True, 250, True),
        ]),
        ("Night Guard", "Custom-fitted night guard", "PHYSICAL", [
            ("Soft", "one_time", 180.0, True, 15, True),
            ("Hard", "one_time", 240.0, True, 8, True),
        ]),
        ("Floss Picks", "Mint floss picks, 90 count", "PHYSICAL", [
            ("Single pack", "one_time", 4.5, True, 900, False),
            ("Box of 12", "one_time", 48.0, True, 60, False),
        ]),
        ("Kids Dental Kit", "Toothbrush, timer and stickers", "PHYSICAL", [
            ("Kit", "one_time", 15.0, True, 75, False),
        ]),
        ("Dental Care Plan", "Two cleanings and one check-up a year", "SERVICE", [
            ("Monthly", "recurring", 29.0, False, None, False),
            ("Yearly", "recurring", 299.0, False, None, False),
        ]),
        ("Gift Card", "Redeemable for any treatment", "DIGITAL", [
            ("$50", "one_time", 50.0, False, None, False),
            ("$100", "one_time", 100.0, False, None, False),
        ]),
        ("Travel Care Set", "Travel brush, paste and floss", "PHYSICAL", [
            ("Set", "one_time", 12.0, True, 200, False),
        ]),
    ],
    "demoLocBravo00000002": [
        ("Resistance Band Set", "Five bands, light to extra heavy", "PHYSICAL", [
            ("Set", "one_time", 35.0, True, 50, False),
        ]),
        ("Foam Roller", "High-density foam roller", "PHYSICAL", [
            ("45 cm", "one_time", 25.0, True, 20, False),
            ("90 cm", "one_time", 39.0, True, 12, True),
        ]),
    ],
}

def hexid(acct, kind, serial):
    return f"{ACCOUNTS[acct]}{kind}{'0' * 16}{serial}"

def ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")

products = []
for acct, catalogue in CATALOGUE.items():
    t = datetime.datetime(2025, 2, 3, 9, 0, 0, tzinfo=datetime.timezone.utc)
    for p_no, (name, desc, ptype, prices) in enumerate(catalogue, start=1):
        t += datetime.timedelta(days=3, hours=2, minutes=17)
        product = {
            "_id": hexid(acct, "01", f"{p_no:04d}"),
            "locationId": acct,
            "name": name,
            "description": desc,
            "productType": ptype,
            "availableInStore": True,
            "createdAt": ts(t),
            "updatedAt": ts(t),
            "prices": [],
        }
        for n, (pname, ptype_, amount, track, qty, oos) in enumerate(prices, start=1):
            price = {
                "_id": hexid(acct, "02", f"{p_no:02d}{n:02d}"),
                "name": pname,
                "type": ptype_,
                "currency": "USD",
                "amount": amount,
                "trackInventory": track,
                "allowOutOfStockPurchases": oos,
                "createdAt": ts(t),
                "updatedAt": ts(t),
            }
            if qty is not None:
                price["availableQuantity"] = qty
            product["prices"].append(price)
        products.append(product)

with open("internal/demo/data/products.json", "w") as f:
    json.dump({"products": products}, f, indent=1)
    f.write("\n")
print(len(products), "products,", sum(len(p["prices"]) for p in products), "prices")
