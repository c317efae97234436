#!/usr/bin/env python3
"""Generates internal/demo/data/ad-publishing.json: the demo search-ad campaigns,
ad groups and daily reporting rows, and the social-ad integrations.

Deterministic (fixed seed): running it again gives the same file. Run it from
the repository root. Ids are fixed and readable:
  demoSearchCmp<Account><nn>       campaigns
  demoSearchAg<Account><nn><mm>    ad group mm of campaign nn
  demoSocialInt<Account>01         social-ad integrations

A campaign's daily row is the sum of its ad groups' rows of that day (as for
search campaigns on the ad network), so both list types add up to the same
totals over any range. Cost is in micros of the account currency, whole cents.
"""
import datetime
import json
import random

rng = random.Random(20260601)
DAY = datetime.timedelta(days=1)


def days(first, last):
    d = datetime.date.fromisoformat(first)
    end = datetime.date.fromisoformat(last)
    while d <= end:
        yield d
        d += DAY


# Weekday demand (Monday first): dental searches drop at the weekend.
WEEKDAY = [1.10, 1.08, 1.05, 1.02, 0.95, 0.72, 0.62]


def daily_rows(first, last, impressions, ctr, cpc, conv_rate):
    """One ad group's rows: impressions around a base with weekday and slow
    monthly drift, clicks/cost/conversions drawn around the given rates."""
    rows = []
    for d in days(first, last):
        drift = 1 + 0.08 * ((d.month - 6) / 4)  # demand grows slowly into autumn
        impr = max(0, round(impressions * WEEKDAY[d.weekday()] * drift * rng.uniform(0.8, 1.2)))
        clicks = min(impr, max(0, round(impr * ctr * rng.uniform(0.75, 1.25))))
        cost_cents = round(clicks * cpc * 100 * rng.uniform(0.85, 1.15))
        conversions = sum(1 for _ in range(clicks) if rng.random() < conv_rate)
        rows.append({"date": d.isoformat(), "impressions": impr, "clicks": clicks,
                     "costMicros": cost_cents * 10_000, "conversions": conversions})
    return rows


def campaign(loc, cid, typ, name, status, groups):
    """groups: (agid, name, status, first, last, impressions, ctr, cpc, conv_rate)."""
    ad_groups, by_day = [], {}
    for agid, gname, gstatus, first, last, impr, ctr, cpc, cr in groups:
        rows = daily_rows(first, last, impr, ctr, cpc, cr)
        ad_groups.append({"id": agid, "name": gname, "status": gstatus, "daily": rows})
        for r in rows:
            s = by_day.setdefault(r["date"], {"date": r["date"], "impressions": 0, "clicks": 0, "costMicros": 0, "conversions": 0})
            for k in ("impressions", "clicks", "costMicros", "conversions"):
                s[k] += r[k]
    return {"id": cid, "locationId": loc, "type": typ, "name": name, "status": status,
            "daily": [by_day[k] for k in sorted(by_day)], "adGroups": ad_groups}


ALPHA, BRAVO, CHARLIE = "demoLocAlpha00000001", "demoLocBravo00000002", "demoLocCharlie000003"
FIRST, LAST = "2026-06-01", "2026-10-31"

campaigns = [
    campaign(ALPHA, "demoSearchCmpAlpha01", "INTEGRATION", "Brand - Alpha Dental Care", "ENABLED", [
        ("demoSearchAgAlpha0101", "Brand name exact", "ENABLED", FIRST, LAST, 210, 0.18, 0.85, 0.14),
        ("demoSearchAgAlpha0102", "Brand + city", "ENABLED", FIRST, LAST, 120, 0.12, 1.10, 0.11),
    ]),
    campaign(ALPHA, "demoSearchCmpAlpha02", "INTEGRATION", "Dental Implants - Generic", "ENABLED", [
        ("demoSearchAgAlpha0201", "Implant cost", "ENABLED", FIRST, LAST, 640, 0.045, 4.20, 0.05),
        ("demoSearchAgAlpha0202", "All-on-4 implants", "ENABLED", FIRST, LAST, 260, 0.038, 6.10, 0.04),
        ("demoSearchAgAlpha0203", "Implant dentist near me", "PAUSED", FIRST, "2026-09-15", 380, 0.052, 3.75, 0.06),
    ]),
    campaign(ALPHA, "demoSearchCmpAlpha03", "INTEGRATION", "Teeth Whitening Summer Offer", "PAUSED", [
        ("demoSearchAgAlpha0301", "Whitening offer", "ENABLED", FIRST, "2026-08-31", 520, 0.061, 1.35, 0.07),
        ("demoSearchAgAlpha0302", "Professional whitening", "ENABLED", FIRST, "2026-08-31", 300, 0.049, 1.60, 0.05),
    ]),
    campaign(ALPHA, "demoSearchCmpAlpha04", "AD_MANAGER", "Emergency Dentist - Ad Manager", "ENABLED", [
        ("demoSearchAgAlpha0401", "Emergency dentist", "ENABLED", FIRST, LAST, 450, 0.072, 2.90, 0.12),
        ("demoSearchAgAlpha0402", "Toothache relief", "ENABLED", FIRST, LAST, 280, 0.055, 2.10, 0.08),
    ]),
    campaign(ALPHA, "demoSearchCmpAlpha05", "AD_MANAGER", "Invisalign Consult - Ad Manager", "ENABLED", [
        ("demoSearchAgAlpha0501", "Clear aligners", "ENABLED", "2026-08-15", LAST, 340, 0.041, 3.30, 0.05),
        ("demoSearchAgAlpha0502", "Invisalign cost", "ENABLED", "2026-08-15", LAST, 230, 0.047, 3.95, 0.04),
    ]),
    # A little elsewhere, to show that accounts never see each other's data.
    campaign(BRAVO, "demoSearchCmpBravo01", "INTEGRATION", "Physiotherapy Near Me", "ENABLED", [
        ("demoSearchAgBravo0101", "Sports physio", "ENABLED", "2026-09-01", "2026-09-30", 180, 0.05, 2.40, 0.07),
    ]),
    campaign(CHARLIE, "demoSearchCmpCharlie01", "INTEGRATION", "Roof Repair", "ENABLED", [
        ("demoSearchAgCharlie0101", "Leak repair", "ENABLED", "2026-10-01", "2026-10-31", 150, 0.06, 5.80, 0.09),
    ]),
]

integrations = [
    {"id": "demoSocialIntAlpha01", "locationId": ALPHA, "adAccountId": "act_100000000000001",
     "adAccountName": "Alpha Dental Care Ads", "pageId": "100200300400501", "pageName": "Alpha Dental Care",
     "connectedAt": "2026-05-20T09:30:00.000Z"},
    {"id": "demoSocialIntBravo01", "locationId": BRAVO, "adAccountId": "act_100000000000002",
     "adAccountName": "Bravo Physio Ads", "pageId": "100200300400502", "pageName": "Bravo Physio Clinic",
     "connectedAt": "2026-05-27T14:05:00.000Z"},
]


def dump_rows(rows, indent):
    """Daily rows one per line: readable diffs, and a file well under 1 MB."""
    pad = " " * indent
    return "[\n" + ",\n".join(pad + " " + json.dumps(r) for r in rows) + "\n" + pad + "]"


def dump_entity(e, indent, nested=()):
    pad = " " * indent
    parts = []
    for k, v in e.items():
        if k == "daily":
            parts.append(f'{pad} "daily": ' + dump_rows(v, indent + 1))
        elif k in nested:
            items = ",\n".join(pad + "  " + dump_entity(x, indent + 2) for x in v)
            parts.append(f'{pad} "{k}": [\n{items}\n{pad} ]')
        else:
            parts.append(f"{pad} {json.dumps(k)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(parts) + "\n" + pad + "}"


out = ['{', ' "searchAdsCampaigns": [']
out.append(",\n".join("  " + dump_entity(c, 2, nested=("adGroups",)) for c in campaigns))
out.append(' ],')
out.append(' "socialAdsIntegrations": [')
out.append(",\n".join("  " + json.dumps(i) for i in integrations))
out.append(' ]')
out.append('}')
text = "\n".join(out) + "\n"
json.loads(text)  # the hand-rolled layout must still be JSON

with open("internal/demo/data/ad-publishing.json", "w") as f:
    f.write(text)
n_rows = sum(len(c["daily"]) + sum(len(g["daily"]) for g in c["adGroups"]) for c in campaigns)
print(len(campaigns), "campaigns,", sum(len(c["adGroups"]) for c in campaigns), "ad groups,",
      n_rows, "daily rows,", len(integrations), "social integrations,", len(text), "bytes")
