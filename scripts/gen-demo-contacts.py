#!/usr/bin/env python3
"""Generates internal/demo/data/contacts.json: the demo contacts and tasks.

Deterministic (fixed seed): running it again gives the same file. Ids are
fixed and readable: demoCtc<Account><n>, demoTsk<Account><n>.
"""
import json, random, datetime

rng = random.Random(20261121)
FIRST = ["Ava", "Liam", "Mia", "Noah", "Zoe", "Ethan", "Ivy", "Lucas", "Nora", "Omar",
         "Priya", "Quinn", "Rosa", "Sam", "Tara", "Uma", "Victor", "Wen", "Xavier", "Yara"]
LAST = ["Anders", "Baker", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito",
        "Jensen", "Khan", "Lopez", "Moreau", "Novak", "Okafor", "Patel", "Rossi", "Silva"]
SOURCES = ["website form", "import", "referral", "facebook ad", "walk-in", "api"]
COUNTRIES = [("US", "America/New_York"), ("US", "America/Los_Angeles"), ("CA", "America/Toronto"),
             ("GB", "Europe/London"), ("DE", "Europe/Berlin"), ("IN", "Asia/Kolkata")]
TAGS = ["lead", "customer", "vip", "newsletter", "webinar", "trial"]
TASKS = ["Call back", "Send proposal", "Follow up on invoice", "Book demo", "Check renewal"]

ACCOUNTS = [("demoLocAlpha00000001", "Alpha", 300), ("demoLocBravo00000002", "Bravo", 30),
            ("demoLocCharlie000003", "Charl", 20)]

contacts = []
for loc, short, n in ACCOUNTS:
    t = datetime.datetime(2025, 1, 6, 9, 0, 0, tzinfo=datetime.timezone.utc)
    task_no = 0
    for i in range(1, n + 1):
        # Every fifth contact shares its predecessor's timestamp, so the list
        # order's tie-break on id is exercised by the demo data too.
        if i % 5 != 0:
            t += datetime.timedelta(minutes=rng.randint(30, 2880), seconds=rng.randint(0, 59))
        first, last = rng.choice(FIRST), rng.choice(LAST)
        country, tz = rng.choice(COUNTRIES)
        c = {
            "id": f"demoCtc{short}{i:08d}",
            "locationId": loc,
            "contactName": f"{first} {last}",
            "firstName": first,
            "lastName": last,
            "email": f"{first.lower()}.{last.lower()}{i}@example.com",
            "phone": f"+1555{rng.randint(1000000, 9999999)}",
            "source": rng.choice(SOURCES),
            "country": country,
            "timezone": tz,
            "dateAdded": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "tags": sorted(rng.sample(TAGS, rng.randint(0, 2))),
            "tasks": [],
        }
        for _ in range(rng.choice([1, 1, 0, 2])):
            task_no += 1
            due = t + datetime.timedelta(days=rng.randint(1, 30))
            c["tasks"].append({
                "id": f"demoTsk{short}{task_no:08d}",
                "title": rng.choice(TASKS),
                "dueDate": due.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                "completed": rng.random() < 0.3,
            })
        contacts.append(c)

with open("internal/demo/data/contacts.json", "w") as f:
    json.dump({"contacts": contacts}, f, indent=1)
    f.write("\n")
print(len(contacts), "contacts,", sum(len(c["tasks"]) for c in contacts), "tasks")
