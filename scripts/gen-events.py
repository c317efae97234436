#!/usr/bin/env python3
"""Writes events/<area>/<operation>.json: one API Gateway HTTP API (payload
2.0) event per operation, for `sam local invoke <Function> -e <file>` and for
the packaging test, which feeds each to the real function binary against the
demo dataset. Every event succeeds once on a freshly loaded demo dataset.

The token is the documented local demo token; it exists only in local engines.
Run from the repository root: python3 scripts/gen-events.py
"""
import json, os, urllib.parse

TOKEN = "bpt_DemoAllScopesAlphaLocal0000000011xFMXT"
MARKETPLACE = "bpt_DemoMarketplaceAlphaLocal000000241YKYe"
ALPHA = "demoLocAlpha00000001"

# area, file name, method, route key path, concrete path, query, body, token
REQUESTS = [
    ("contacts", "list-contacts", "GET", "/contacts/", "/contacts/",
     {"locationId": ALPHA, "limit": "5", "query": "lopez"}, None, TOKEN),
    ("contacts", "delete-task", "DELETE", "/contacts/{contactId}/tasks/{taskId}",
     "/contacts/demoCtcAlpha00000001/tasks/demoTskAlpha00000001", None, None, TOKEN),
    ("payments", "create-whitelabel-provider", "POST", "/payments/integrations/provider/whitelabel",
     "/payments/integrations/provider/whitelabel", None,
     {"altId": ALPHA, "altType": "account", "uniqueName": "alpha-direct-pay", "title": "Alpha Direct Pay",
      "provider": "authorize-net", "description": "Card payments for Alpha Dental Care through Authorize.net",
      "imageUrl": "https://assets.example.com/payments/alpha-direct-pay.png"}, MARKETPLACE),
    ("payments", "delete-coupon", "DELETE", "/payments/coupon", "/payments/coupon", None,
     {"altId": ALPHA, "altType": "account", "id": "demoCpnAlpha00000003"}, TOKEN),
    ("custom-fields", "update-custom-field", "PUT", "/custom-fields/{id}", "/custom-fields/demoFldPetBreedAlpha", None,
     {"locationId": ALPHA, "showInForms": True, "placeholder": "Pick a breed",
      "options": [{"key": "labrador", "label": "Labrador"}, {"label": "Beagle"}, {"label": "Poodle"},
                  {"label": "Golden Retriever"}]}, TOKEN),
    ("users", "filter-users-by-email", "POST", "/users/search/filter-by-email", "/users/search/filter-by-email", None,
     {"companyId": "demoCompanyNorthwind", "emails": "zoe.garcia@alphadental.example, Casey.Morgan@freelance.example",
      "projection": "name,roles"}, TOKEN),
    ("surveys", "list-surveys", "GET", "/surveys/", "/surveys/",
     {"locationId": ALPHA, "type": "folder", "limit": "3"}, None, TOKEN),
    ("campaigns", "list-campaigns", "GET", "/campaigns/", "/campaigns/",
     {"locationId": ALPHA, "status": "draft"}, None, TOKEN),
    ("ad-publishing", "searchads-reporting-list", "GET", "/ad-publishing/searchads/reporting/list",
     "/ad-publishing/searchads/reporting/list",
     {"locationId": ALPHA, "listType": "adGroups", "type": "INTEGRATION", "startDate": "2026-09-01",
      "endDate": "2026-09-30", "campaignId": "demoSearchCmpAlpha02"}, None, TOKEN),
    ("ad-publishing", "socialads-delete-integration", "DELETE", "/ad-publishing/socialads/integration",
     "/ad-publishing/socialads/integration", None, {"locationId": ALPHA}, TOKEN),
    ("emails", "create-template", "POST", "/emails/builder", "/emails/builder", None,
     {"locationId": ALPHA, "type": "html", "title": "Summer check-up reminder", "name": "Summer reminder",
      "builderVersion": "2", "parentId": "demoFldAlpha00000002", "isPlainText": False}, TOKEN),
    ("voice-ai", "update-action", "PUT", "/voice-ai/actions/{actionId}", "/voice-ai/actions/demoActAlphaCallTransfer",
     None,
     {"agentId": "demoAgtAlpha00000001", "locationId": ALPHA, "actionType": "CALL_TRANSFER",
      "name": "Transfer to front desk lead",
      "actionParameters": {"triggerPrompt": "When the caller asks for a person or is upset", "transferToType": "number",
                           "transferToValue": "+15550104478",
                           "triggerMessage": "Let me put you through to our front desk lead.",
                           "hearWhisperMessage": True}}, TOKEN),
    ("conversations", "get-message", "GET", "/conversations/messages/{id}",
     "/conversations/messages/demoMsgAlpha00000004", None, None, TOKEN),
    ("medias", "list-files", "GET", "/medias/files", "/medias/files",
     {"altType": "account", "altId": ALPHA, "type": "file", "sortBy": "createdAt", "sortOrder": "asc",
      "parentId": "demoFldAlpha00000003", "limit": "20", "offset": "20"}, None, TOKEN),
    ("medias", "rename", "POST", "/medias/{id}", "/medias/demoFldAlpha00000005", None,
     {"name": "Leaflets", "altType": "account", "altId": ALPHA}, TOKEN),
    ("associations", "create-association", "POST", "/associations/", "/associations/", None,
     {"locationId": ALPHA, "key": "vehicle_driver", "firstObjectLabel": "Vehicle",
      "firstObjectKey": "custom_objects.vehicle", "secondObjectLabel": "Driver", "secondObjectKey": "contact"}, TOKEN),
    ("associations", "create-relation", "POST", "/associations/relations", "/associations/relations", None,
     {"locationId": ALPHA, "associationId": "demoAscAlpha00000001", "firstRecordId": "demoPetAlpha00000003",
      "secondRecordId": "demoCtcAlpha00000010"}, TOKEN),
    ("brand-boards", "create-brand-board", "POST", "/brand-boards/", "/brand-boards/", None,
     {"locationId": ALPHA, "name": "Summer campaign 2026", "brandBoardId": "bbd0a1000000000000000001",
      "type": "template", "default": True,
      "colors": [{"id": "color_sun", "hexa": "#ffc300ff", "rgba": "rgba(255, 195, 0, 1)", "hex": "#ffc300",
                  "rgb": "rgb(255, 195, 0)", "label": "Sunshine"}]}, TOKEN),
    ("products", "update-inventory", "POST", "/products/inventory", "/products/inventory", None,
     {"altId": ALPHA, "altType": "account", "items": [
         {"priceId": "a10200000000000000000201", "availableQuantity": 35, "allowOutOfStockPurchases": False},
         {"priceId": "a10200000000000000000202", "availableQuantity": 12, "allowOutOfStockPurchases": True},
         {"priceId": "a10200000000000000000401", "availableQuantity": 800}]}, TOKEN),
    ("store", "update-shipping-zone", "PUT", "/store/shipping-zone/{shippingZoneId}",
     "/store/shipping-zone/a10300000000000000000002", None,
     {"altId": ALPHA, "altType": "account", "name": "West Coast and BC",
      "countries": [{"code": "US", "states": [{"code": "CA"}, {"code": "OR"}, {"code": "WA"}, {"code": "NV"}]},
                    {"code": "CA", "states": [{"code": "BC"}]}]}, TOKEN),
    ("store", "update-shipping-rate", "PUT", "/store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId}",
     "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000102", None,
     {"altId": ALPHA, "altType": "account", "name": "Free over $75", "minCondition": 75, "maxCondition": None}, TOKEN),
]


def path_params(route, path):
    out = {}
    for r, p in zip(route.strip("/").split("/"), path.strip("/").split("/")):
        if r.startswith("{") and r.endswith("}"):
            out[r[1:-1]] = p
    return out


def event(area, name, method, route, path, query, body, token, n):
    headers = {
        "accept": "application/json",
        "authorization": "Bearer " + token,
        "host": "abc123defg.execute-api.us-east-1.amazonaws.com",
        "user-agent": "curl/8.5.0",
        "version": "2021-07-28",
        "x-forwarded-for": "192.0.2.10",
        "x-forwarded-port": "443",
        "x-forwarded-proto": "https",
    }
    ev = {
        "version": "2.0",
        "routeKey": f"{method} {route}",
        "rawPath": path,
        "rawQueryString": urllib.parse.urlencode(query or {}),
        "headers": headers,
    }
    if query:
        ev["queryStringParameters"] = query
    params = path_params(route, path)
    if params:
        ev["pathParameters"] = params
    ev["requestContext"] = {
        "accountId": "123456789012",
        "apiId": "abc123defg",
        "domainName": "abc123defg.execute-api.us-east-1.amazonaws.com",
        "domainPrefix": "abc123defg",
        "http": {"method": method, "path": path, "protocol": "HTTP/1.1",
                 "sourceIp": "192.0.2.10", "userAgent": "curl/8.5.0"},
        "requestId": f"Evt{n:02d}{area.replace('-', '')[:8]}Req=",
        "routeKey": f"{method} {route}",
        "stage": "$default",
        "time": "21/Nov/2026:09:30:00 +0000",
        "timeEpoch": 1795253400000 + n,
    }
    if body is not None:
        headers["content-type"] = "application/json"
        ev["body"] = json.dumps(body, separators=(",", ":"))
    ev["isBase64Encoded"] = False
    return ev


for n, req in enumerate(REQUESTS, 1):
    area, name = req[0], req[1]
    os.makedirs(f"events/{area}", exist_ok=True)
    with open(f"events/{area}/{name}.json", "w") as f:
        json.dump(event(*req, n), f, indent=2)
        f.write("\n")

with open("events/env.json", "w") as f:
    json.dump({"Parameters": {
        "DYNAMODB_ENDPOINT": "http://host.docker.internal:4567",
        "TABLE_NAME": "platform",
        "AWS_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "LOG_LEVEL": "DEBUG",
    }}, f, indent=2)
    f.write("\n")
print(f"wrote {len(REQUESTS)} events and events/env.json")
