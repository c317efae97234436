#!/usr/bin/env python3
"""Generates internal/demo/data/campaigns.json: the demo campaigns.

Deterministic: running it again gives the same file. Ids are fixed and
readable: demoCmp<Account><n>. Alpha has campaigns in both statuses; Bravo
and Charlie one or two each, to prove one account never sees another's.
The list answers them in id order.
"""
import json

ROWS = [
    ("demoLocAlpha00000001", "Alpha", [
        ("published", "Spring check-up reminder"),
        ("draft", "Teeth whitening offer"),
        ("published", "New patient welcome series"),
        ("published", "Six-month recall"),
        ("draft", "Referral rewards launch"),
        ("published", "Missed appointment win-back"),
        ("draft", "Holiday hours announcement"),
        ("published", "Review request after visit"),
    ]),
    ("demoLocBravo00000002", "Bravo", [
        ("published", "Back pain workshop invite"),
        ("draft", "Sports injury season"),
    ]),
    ("demoLocCharlie000003", "Charl", [
        ("published", "Storm damage inspection"),
    ]),
]

campaigns = []
for loc, short, rows in ROWS:
    campaigns += [{"id": f"demoCmp{short}{i:08d}", "name": name, "status": status, "locationId": loc}
                  for i, (status, name) in enumerate(rows, 1)]

with open("internal/demo/data/campaigns.json", "w") as f:
    json.dump({"campaigns": campaigns}, f, indent=1)
    f.write("\n")
print(len(campaigns), "campaigns")
