#!/usr/bin/env python3
"""Generates internal/demo/data/surveys.json: the demo surveys and survey folders.

Deterministic: running it again gives the same file. Ids are fixed and
readable: demoSrv<Account><n>. Alpha has 26 records (more than two default
pages of 10), six of them folders; Bravo and Charlie a few each, to prove
one account never sees another's. The list answers them in id order.
"""
import json

ALPHA = [
    ("folder", "Patient feedback"),
    ("survey", "Post-visit satisfaction"),
    ("survey", "New patient intake"),
    ("survey", "Hygiene appointment follow-up"),
    ("folder", "Marketing"),
    ("survey", "How did you hear about us?"),
    ("survey", "Teeth whitening interest"),
    ("survey", "Invisalign consultation pre-screen"),
    ("survey", "Net promoter score (quarterly)"),
    ("folder", "Staff"),
    ("survey", "Staff onboarding checklist"),
    ("survey", "Team training feedback"),
    ("survey", "Emergency appointment triage"),
    ("survey", "Insurance information update"),
    ("folder", "Archived"),
    ("survey", "Holiday opening hours poll"),
    ("survey", "Children's dentistry feedback"),
    ("survey", "Referral program sign-up"),
    ("survey", "Payment plan interest"),
    ("folder", "Events"),
    ("survey", "Open day registration"),
    ("survey", "Oral health workshop feedback"),
    ("survey", "Waiting room experience"),
    ("survey", "Online booking usability"),
    ("folder", "Templates"),
    ("survey", "Cancellation reason"),
]
OTHERS = [
    ("demoLocBravo00000002", "Bravo", [("survey", "Physio session feedback"), ("survey", "Injury intake"),
                                       ("folder", "Rehab programs")]),
    ("demoLocCharlie000003", "Charl", [("survey", "Roof inspection request"), ("survey", "Job completion feedback")]),
]

surveys = [{"id": f"demoSrvAlpha{i:08d}", "name": name, "locationId": "demoLocAlpha00000001", "type": typ}
           for i, (typ, name) in enumerate(ALPHA, 1)]
for loc, short, rows in OTHERS:
    surveys += [{"id": f"demoSrv{short}{i:08d}", "name": name, "locationId": loc, "type": typ}
                for i, (typ, name) in enumerate(rows, 1)]

with open("internal/demo/data/surveys.json", "w") as f:
    json.dump({"surveys": surveys}, f, indent=1)
    f.write("\n")
print(len(ALPHA), "Alpha records,", sum(t == "folder" for t, _ in ALPHA), "folders;", len(surveys) - len(ALPHA), "elsewhere")
