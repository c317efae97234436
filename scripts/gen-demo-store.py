#!/usr/bin/env python3
"""Generates internal/demo/data/store.json: the demo shipping zones and rates.

Deterministic: running it again gives the same file. Ids are 24-character
hexadecimal (the public API's database id format) and readable:

    <account:2><kind:2><zeros:16><serial:4>
    account  a1 = demoLocAlpha00000001, b2 = demoLocBravo00000002
    kind     03 = shipping zone, 04 = shipping rate, 05 = shipping carrier
    serial   zone: 00ZZ; rate: ZZNN (rate NN of zone ZZ)

so a1040000000000000000 0102 is the second rate of Alpha's first zone.
"""
import datetime, json

ACCOUNTS = {"demoLocAlpha00000001": "a1", "demoLocBravo00000002": "b2"}

def hexid(acct, kind, serial):
    return f"{ACCOUNTS[acct]}{kind}{'0' * 16}{serial}"

CARRIER = hexid("demoLocAlpha00000001", "05", "0001")

def rate(name, amount, description="", condition="none", lo=0, hi=0, carrier=False, currency="USD"):
    r = {
        "name": name,
        "description": description,
        "currency": currency,
        "amount": amount,
        "conditionType": condition,
        "minCondition": lo,
        "maxCondition": hi,
        "isCarrierRate": carrier,
        "shippingCarrierId": "",
        "shippingCarrierServices": [],
    }
    if carrier:
        r["shippingCarrierId"] = CARRIER
        r["percentageOfRateFee"] = 10
        r["shippingCarrierServices"] = [
            {"name": "Priority Mail Express International", "value": "PriorityMailExpressInternational"},
            {"name": "Priority Mail International", "value": "PriorityMailInternational"},
        ]
    return r

def country(code, *states):
    return {"code": code, "states": [{"code": s} for s in states]}

ZONES = {
    "demoLocAlpha00000001": [
        ("Domestic (US)", [country("US")], [
            rate("Standard", 5.99, "3-5 business days"),
            rate("Free over $100", 0, "3-5 business days", "price", 100, 0),
            rate("Express", 19.5, "Next business day"),
        ]),
        ("West Coast", [country("US", "CA", "OR", "WA"), country("CA", "BC")], [
            rate("Regional ground", 4.5, "2-3 business days"),
            rate("Heavy parcel", 14, "For 5-30 kg", "weight", 5, 30),
        ]),
        ("Europe", [country("DE"), country("FR"), country("GB", "ENG", "SCT", "WLS", "NIR"), country("IT"), country("ES")], [
            rate("International standard", 24, "7-14 business days", currency="EUR"),
            rate("Carrier quote", 2.5, "Live carrier rate plus handling", carrier=True),
        ]),
        ("Asia Pacific", [country("JP", "JP-13", "JP-27"), country("AU", "NSW", "VIC"), country("NZ")], [
            rate("Economy air", 29, "10-20 business days", "price", 0, 500),
        ]),
    ],
    "demoLocBravo00000002": [
        ("Local delivery", [country("PT", "PT-11", "PT-13")], [
            rate("Courier", 6, "Same day in Lisbon and Porto", currency="EUR"),
        ]),
    ],
}

def ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")

zones = []
for acct, zs in ZONES.items():
    t = datetime.datetime(2025, 3, 4, 10, 0, 0, tzinfo=datetime.timezone.utc)
    for z_no, (name, countries, rates) in enumerate(zs, start=1):
        t += datetime.timedelta(days=2, hours=1, minutes=41)
        zone = {
            "_id": hexid(acct, "03", f"{z_no:04d}"),
            "altId": acct,
            "altType": "account",
            "name": name,
            "countries": countries,
            "createdAt": ts(t),
            "updatedAt": ts(t),
            "shippingRates": [],
        }
        for n, r in enumerate(rates, start=1):
            r = {"_id": hexid(acct, "04", f"{z_no:02d}{n:02d}"), **r, "createdAt": ts(t), "updatedAt": ts(t)}
            zone["shippingRates"].append(r)
        zones.append(zone)

with open("internal/demo/data/store.json", "w") as f:
    json.dump({"shippingZones": zones}, f, indent=1)
    f.write("\n")
print(len(zones), "zones,", sum(len(z["shippingRates"]) for z in zones), "rates")
