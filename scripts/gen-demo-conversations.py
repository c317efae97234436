#!/usr/bin/env python3
"""Generates internal/demo/data/conversations.json: the demo messages.

Deterministic: running it again gives the same file. Ids are fixed and
readable: demoMsg<Account><n> (messages), demoCnv<Account><n> (conversations);
contacts are the demo contacts demoCtc<Account><n> of contacts.json.

Numeric `type`: the contract fixes 1 (TYPE_CALL), 3 (TYPE_EMAIL) and 10
(TYPE_CAMPAIGN_VOICEMAIL); the others follow the public API's messageType
list in order, without TYPE_RCS (a later addition whose number the contract
does not give), which is what puts those three at 1, 3 and 10. Brand-named
types are not used in the demo data.
"""
import json, datetime, pathlib

ORDER = ["TYPE_CALL", "TYPE_SMS", "TYPE_EMAIL", "TYPE_SMS_REVIEW_REQUEST", "TYPE_WEBCHAT",
         "TYPE_SMS_NO_SHOW_REQUEST", "TYPE_CAMPAIGN_SMS", "TYPE_CAMPAIGN_CALL", "TYPE_CAMPAIGN_EMAIL",
         "TYPE_CAMPAIGN_VOICEMAIL", "TYPE_FACEBOOK", "TYPE_CAMPAIGN_FACEBOOK", "TYPE_CAMPAIGN_MANUAL_CALL",
         "TYPE_CAMPAIGN_MANUAL_SMS", "TYPE_GMB", "TYPE_CAMPAIGN_GMB", "TYPE_REVIEW", "TYPE_INSTAGRAM",
         "TYPE_WHATSAPP", "TYPE_CUSTOM_SMS", "TYPE_CUSTOM_EMAIL", "TYPE_CUSTOM_PROVIDER_SMS",
         "TYPE_CUSTOM_PROVIDER_EMAIL", "TYPE_IVR_CALL", "TYPE_ACTIVITY_CONTACT", "TYPE_ACTIVITY_INVOICE",
         "TYPE_ACTIVITY_PAYMENT", "TYPE_ACTIVITY_OPPORTUNITY", "TYPE_LIVE_CHAT",
         "TYPE_LIVE_CHAT_INFO_MESSAGE", "TYPE_ACTIVITY_APPOINTMENT", "TYPE_FACEBOOK_COMMENT",
         "TYPE_INSTAGRAM_COMMENT", "TYPE_CUSTOM_CALL", "TYPE_INTERNAL_COMMENT",
         "TYPE_ACTIVITY_EMPLOYEE_ACTION_LOG", "TYPE_TIKTOK", "TYPE_TIKTOK_COMMENT", "TYPE_ACTIVITY_WHATSAPP",
         "TYPE_FORM_SUBMISSION", "TYPE_SMS_REACTION"]
TYPE = {name: i + 1 for i, name in enumerate(ORDER)}
assert TYPE["TYPE_CALL"] == 1 and TYPE["TYPE_EMAIL"] == 3 and TYPE["TYPE_CAMPAIGN_VOICEMAIL"] == 10

MEDIA = "https://media.example.com/accounts"
START = datetime.datetime(2025, 3, 3, 8, 0, 0, tzinfo=datetime.timezone.utc)


def ts(minutes):
    return (START + datetime.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def account(loc, short):
    def ids(kind, n):
        return f"demo{kind}{short}{n:08d}"
    return ids


messages = []


def msg(loc, short, n, conv, contact, minutes, message_type, direction, content_type, **extra):
    ids = account(loc, short)
    m = {
        "id": ids("Msg", n),
        "type": TYPE[message_type],
        "messageType": message_type,
        "locationId": loc,
        "contactId": ids("Ctc", contact),
        "conversationId": ids("Cnv", conv),
        "dateAdded": ts(minutes),
    }
    if "body" in extra:
        m["body"] = extra.pop("body")
    m["direction"] = direction
    if "status" in extra:
        m["status"] = extra.pop("status")
    m["contentType"] = content_type
    m["attachments"] = extra.pop("attachments", [])
    for k in ("meta", "source", "userId", "conversationProviderId", "chatWidgetId"):
        if k in extra:
            m[k] = extra.pop(k)
    assert not extra, extra
    messages.append(m)


A, AS = "demoLocAlpha00000001", "Alpha"
user = "demoUsrNorth00000007"
email_thread = [f"demoMsgAlpha{n:08d}" for n in (4, 5, 6)]

# Conversation 1, contact 1: an SMS thread (in, out, in with a photo, out failed then resent).
msg(A, AS, 1, 1, 1, 0, "TYPE_SMS", "inbound", "text/plain", body="Hi, could I move my cleaning to Friday morning?", status="delivered")
msg(A, AS, 2, 1, 1, 12, "TYPE_SMS", "outbound", "text/plain", body="Of course! Friday 9:30 is free. Shall I book it?", status="delivered", source="app", userId=user)
msg(A, AS, 3, 1, 1, 20, "TYPE_SMS", "inbound", "text/plain", body="Yes please. Here is the photo of my insurance card.", status="delivered",
    attachments=[f"{MEDIA}/{A}/attachments/demoMsgAlpha00000003/insurance-card.jpg"])
msg(A, AS, 17, 1, 1, 25, "TYPE_SMS", "outbound", "text/plain", body="Booked: Friday 9:30. See you then!", status="failed", source="app", userId=user)
msg(A, AS, 18, 1, 1, 27, "TYPE_SMS", "outbound", "text/plain", body="Booked: Friday 9:30. See you then!", status="read", source="app", userId=user)

# Conversation 2, contact 2: an e-mail thread of three messages.
msg(A, AS, 4, 2, 2, 60, "TYPE_EMAIL", "outbound", "text/html",
    body="<p>Dear Yara,</p><p>Please find your treatment plan attached.</p>", status="opened", source="workflow",
    attachments=[f"{MEDIA}/{A}/attachments/demoMsgAlpha00000004/treatment-plan.pdf"],
    meta={"email": {"messageIds": email_thread}}, userId=user)
msg(A, AS, 5, 2, 2, 180, "TYPE_EMAIL", "inbound", "text/html",
    body="<p>Thanks! Does the plan include the follow-up X-ray?</p>", status="delivered",
    meta={"email": {"messageIds": email_thread}})
msg(A, AS, 6, 2, 2, 200, "TYPE_EMAIL", "outbound", "text/html",
    body="<p>Yes, the follow-up X-ray is included.</p>", status="sent", source="app",
    meta={"email": {"messageIds": email_thread}}, userId=user)

# Conversation 3, contact 3: calls (type 1) and a campaign voicemail (type 10); never attachments.
msg(A, AS, 7, 3, 3, 300, "TYPE_CALL", "inbound", "text/plain", status="connected",
    meta={"callDuration": "184", "callStatus": "completed"}, userId=user)
msg(A, AS, 8, 3, 3, 330, "TYPE_CALL", "outbound", "text/plain", status="undelivered",
    meta={"callDuration": "0", "callStatus": "no-answer"}, source="app", userId=user)
msg(A, AS, 9, 3, 3, 340, "TYPE_CAMPAIGN_VOICEMAIL", "outbound", "text/plain", status="delivered",
    meta={"callDuration": "32", "callStatus": "voicemail"}, source="campaign")

# Conversation 4, contact 4: website chat.
widget = "demoWgtAlpha00000001"
msg(A, AS, 10, 4, 4, 400, "TYPE_WEBCHAT", "inbound", "text/plain", body="Do you offer clear aligner consultations?", status="delivered", chatWidgetId=widget)
msg(A, AS, 11, 4, 4, 402, "TYPE_WEBCHAT", "outbound", "text/plain", body="We do, and the first consultation is free.", status="read", source="app", userId=user, chatWidgetId=widget)

# Conversation 5, contact 5: live chat with an info message.
msg(A, AS, 12, 5, 5, 500, "TYPE_LIVE_CHAT", "inbound", "text/plain", body="Is there parking near the clinic?", status="read")
msg(A, AS, 13, 5, 5, 501, "TYPE_LIVE_CHAT_INFO_MESSAGE", "outbound", "text/plain", body="Chat transferred to reception", source="app")

# Conversation 6, contact 6: campaign messages.
msg(A, AS, 14, 6, 6, 600, "TYPE_CAMPAIGN_SMS", "outbound", "text/plain", body="Spring offer: 20% off whitening until April 30.", status="delivered", source="campaign")
msg(A, AS, 15, 6, 6, 610, "TYPE_CAMPAIGN_EMAIL", "outbound", "text/html", body="<h1>Spring offer</h1><p>20% off whitening.</p>", status="clicked", source="bulk_actions",
    attachments=[f"{MEDIA}/{A}/attachments/demoMsgAlpha00000015/spring-offer.png"],
    meta={"email": {"messageIds": ["demoMsgAlpha00000015"]}})

# Conversation 7, contact 7: an SMS through a custom provider, queued, sent by the API.
msg(A, AS, 16, 7, 7, 700, "TYPE_CUSTOM_PROVIDER_SMS", "outbound", "text/plain", body="Reminder: appointment tomorrow at 14:00.", status="queued", source="api",
    conversationProviderId="demoPrvAlpha00000001")

# Conversation 8, contact 8: a review request and an internal note.
msg(A, AS, 19, 8, 8, 800, "TYPE_SMS_REVIEW_REQUEST", "outbound", "text/plain", body="How was your visit? Leave us a review: https://reviews.example.com/alpha", status="sent", source="workflow")
msg(A, AS, 20, 8, 8, 805, "TYPE_INTERNAL_COMMENT", "outbound", "text/plain", body="Patient prefers morning appointments.", userId=user)

B, BS = "demoLocBravo00000002", "Bravo"
msg(B, BS, 1, 1, 1, 30, "TYPE_SMS", "inbound", "text/plain", body="Is my physio session still on for Monday?", status="delivered")
msg(B, BS, 2, 1, 1, 45, "TYPE_CALL", "outbound", "text/plain", status="connected", meta={"callDuration": "95", "callStatus": "completed"}, source="app")

C, CS = "demoLocCharlie000003", "Charl"
msg(C, CS, 1, 1, 1, 90, "TYPE_SMS", "inbound", "text/plain", body="Can you quote a roof repair next week?", status="delivered")

messages.sort(key=lambda m: (m["locationId"], m["id"]))
out = pathlib.Path(__file__).resolve().parent.parent / "internal/demo/data/conversations.json"
out.write_text(json.dumps({"messages": messages}, indent=1, ensure_ascii=False) + "\n")
print(f"wrote {len(messages)} messages to {out}")
