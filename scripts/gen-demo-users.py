#!/usr/bin/env python3
"""Generates internal/demo/data/users.json: the demo users of both companies.

Deterministic (fixed seed): running it again gives the same file. Ids are
fixed and readable: demoUsrNorth<n> (company demoCompanyNorthwind),
demoUsrSouth<n> (company demoCompanySouthwind).

What the data shows:
- Northwind has 40 users: agency staff on northwind.example, account staff
  on alphadental.example and bravophysio.example (shared domains), with
  varied roles and permissions.
- Four Northwind users are deleted; one of them, sam.rivera@alphadental.example,
  shares its address with an active user (rehired), so the deleted filter
  decides which of the two a search finds.
- casey.morgan@freelance.example is a user of both companies: a search in one
  company never returns the other's.
"""
import json, random

rng = random.Random(20260615)
ALPHA, BRAVO = "demoLocAlpha00000001", "demoLocBravo00000002"
CHARLIE = "demoLocCharlie000003"
LANGS = ["en_US", "en_US", "en_US", "es", "fr_CA", "de", "nl", "pt_BR", "it"]

FIRST = ["Ava", "Liam", "Mia", "Noah", "Zoe", "Ethan", "Ivy", "Lucas", "Nora", "Omar",
         "Priya", "Quinn", "Rosa", "Tara", "Uma", "Victor", "Wen", "Xavier", "Yara", "Abel",
         "Bea", "Cole", "Dara", "Eli", "Fay", "Gus", "Hana", "Ian", "Jade", "Kofi",
         "Lena", "Milo", "Nia", "Otto", "Pia", "Rhea"]
LAST = ["Anders", "Baker", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito",
        "Jensen", "Khan", "Lopez", "Moreau", "Novak", "Okafor", "Patel", "Rossi", "Silva"]

ADMIN_SCOPES = ["campaigns.readonly", "campaigns.write", "contacts.write", "conversations.readonly",
                "conversations.write", "medias.readonly", "medias.write", "opportunities.write",
                "payments.write", "settings.write", "surveys.write", "workflows.readonly"]
USER_SCOPES = ["contacts.write", "conversations.readonly", "conversations.write",
               "calendars.readonly", "opportunities.write"]


def user(company_short, n, first, last, email, role_type, role, locations, deleted=False):
    u = {
        "id": f"demoUsr{company_short}{n:08d}",
        "companyId": "demoCompanyNorthwind" if company_short == "North" else "demoCompanySouthwind",
        "name": f"{first} {last}",
        "firstName": first,
        "lastName": last,
        "email": email,
        "phone": f"+1555{rng.randint(1000000, 9999999)}",
        "extension": str(rng.randint(100, 999)) if rng.random() < 0.3 else "",
        "permissions": {},
        "scopes": [],
        "roles": {"type": role_type, "role": role, "locationIds": locations,
                  "restrictSubAccount": role_type == "agency" and role == "user"},
        "deleted": deleted,
        "lcPhone": {},
        "platformLanguage": rng.choice(LANGS),
    }
    if role == "admin":
        u["scopes"] = sorted(rng.sample(ADMIN_SCOPES, rng.randint(6, len(ADMIN_SCOPES))))
        # Some admins see the ad and attribution reports and build websites.
        if rng.random() < 0.5:
            u["permissions"].update({"searchAdsReportingEnabled": True, "socialAdsReportingEnabled": True,
                                     "attributionsReportingEnabled": True})
        if rng.random() < 0.4:
            u["permissions"]["websitesEnabled"] = True
    else:
        u["scopes"] = sorted(rng.sample(USER_SCOPES, rng.randint(2, len(USER_SCOPES))))
        # Users see only what is assigned to them and stay out of money and settings.
        u["permissions"].update({"assignedDataOnly": True, "settingsEnabled": False,
                                 "paymentsEnabled": False, "refundsEnabled": False,
                                 "exportPaymentsEnabled": False})
        if rng.random() < 0.4:
            u["permissions"].update({"campaignsReadOnly": True, "workflowsReadOnly": True})
        if rng.random() < 0.3:
            u["permissions"]["bulkRequestsEnabled"] = False
    for loc in locations:
        if rng.random() < 0.4:
            u["lcPhone"][loc] = f"+1555{rng.randint(1000000, 9999999)}"
    return u


users = []
names = iter([(f, l) for f in FIRST for l in LAST][::13])  # distinct pairs, spread out
n = 0

# Northwind: 6 agency staff, then account staff of Alpha and Bravo.
for i in range(6):
    n += 1
    first, last = next(names)
    role = "admin" if i < 3 else "user"
    users.append(user("North", n, first, last, f"{first.lower()}.{last.lower()}@northwind.example",
                      "agency", role, [ALPHA, BRAVO]))
for i in range(31):
    n += 1
    first, last = next(names)
    if i < 20:
        domain, locs = "alphadental.example", [ALPHA]
    elif i < 28:
        domain, locs = "bravophysio.example", [BRAVO]
    else:
        domain, locs = "alphadental.example", [ALPHA, BRAVO]
    role = "admin" if i % 6 == 0 else "user"
    deleted = i in (7, 15, 24)
    users.append(user("North", n, first, last, f"{first.lower()}.{last.lower()}@{domain}",
                      "account", role, locs, deleted))
# Sam Rivera left (deleted) and was rehired (a new, active user): same address.
n += 1
users.append(user("North", n, "Sam", "Rivera", "sam.rivera@alphadental.example", "account", "user", [ALPHA], True))
n += 1
users.append(user("North", n, "Sam", "Rivera", "Sam.Rivera@alphadental.example", "account", "user", [ALPHA]))
# A freelancer who works for both companies.
n += 1
users.append(user("North", n, "Casey", "Morgan", "casey.morgan@freelance.example", "account", "user", [ALPHA]))

s = 0
for first, last in [("Dana", "Brooks"), ("Eric", "Holm"), ("Fiona", "Reyes"), ("Glen", "Tanaka"),
                    ("Hugo", "Varga"), ("Iris", "Wolfe"), ("Jon", "Yilmaz")]:
    s += 1
    role = "admin" if s <= 2 else "user"
    users.append(user("South", s, first, last, f"{first.lower()}.{last.lower()}@southwind.example",
                      "agency" if s == 1 else "account", role, [CHARLIE]))
s += 1
users.append(user("South", s, "Casey", "Morgan", "casey.morgan@freelance.example", "account", "admin", [CHARLIE]))

with open("internal/demo/data/users.json", "w") as f:
    json.dump({"users": users}, f, indent=1)
    f.write("\n")
north = [u for u in users if u["companyId"] == "demoCompanyNorthwind"]
print(len(north), "Northwind users,", sum(u["deleted"] for u in north), "deleted;",
      len(users) - len(north), "Southwind users")
