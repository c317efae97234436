#!/usr/bin/env python3
"""Generates internal/demo/data/medias.json: the demo media library.

Deterministic: running it again gives the same file. Ids are fixed and
readable: demoFld<Account><n> (folders), demoFil<Account><n> (files). A file's
url names the stored object by id (a rename leaves it valid); paths are not
stored: the API derives them from the folder names.

Alpha's tree (folder "Clinic Photos" holds 30 photos: more than one page of
the default limit, 20):

  Marketing/                      Patient Forms/       Clinic Photos/ (30)   Staff/
    Brochures/                      3 forms                                    Training/
      2025/                                                                      2 files
        spring-offer.pdf                                                       rota.xlsx
      implants-guide.pdf, teeth-whitening.pdf
    Social Posts/  3 images
  logo.png, price-list-2025.pdf, welcome-video.mp4   (at the root)
"""
import json, datetime, pathlib

MEDIA = "https://media.example.com/accounts"
entries = []


def ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")


class Account:
    def __init__(self, loc, short, start):
        self.loc, self.short, self.t = loc, short, start
        self.folders = self.files = 0

    def tick(self, minutes):
        self.t += datetime.timedelta(minutes=minutes)
        return self.t

    def folder(self, name, parent=None, minutes=60, edited=0):
        self.folders += 1
        fid = f"demoFld{self.short}{self.folders:08d}"
        self.add(fid, "folder", name, parent, None, minutes, edited)
        return fid

    def file(self, name, parent=None, minutes=60, edited=0):
        self.files += 1
        fid = f"demoFil{self.short}{self.files:08d}"
        ext = name.rsplit(".", 1)[-1].lower()
        self.add(fid, "file", name, parent, f"{MEDIA}/{self.loc}/media/{fid}.{ext}", minutes, edited)
        return fid

    def add(self, fid, typ, name, parent, url, minutes, edited):
        created = self.tick(minutes)
        e = {"_id": fid, "altId": self.loc, "altType": "account", "name": name}
        if parent:
            e["parentId"] = parent
        if url:
            e["url"] = url
        e["type"] = typ
        e["createdAt"] = ts(created)
        e["updatedAt"] = ts(created + datetime.timedelta(hours=edited))
        entries.append(e)


a = Account("demoLocAlpha00000001", "Alpha", datetime.datetime(2025, 2, 3, 9, 0, tzinfo=datetime.timezone.utc))
marketing = a.folder("Marketing")
forms = a.folder("Patient Forms")
photos = a.folder("Clinic Photos")
staff = a.folder("Staff")
brochures = a.folder("Brochures", marketing)
social = a.folder("Social Posts", marketing)
y2025 = a.folder("2025", brochures)
training = a.folder("Training", staff)

a.file("logo.png", edited=240)
a.file("price-list-2025.pdf", edited=72)
a.file("welcome-video.mp4")
a.file("teeth-whitening.pdf", brochures)
a.file("implants-guide.pdf", brochures, edited=30)
a.file("spring-offer.pdf", y2025)
a.file("whitening-post.png", social)
a.file("team-photo.jpg", social)
a.file("open-day-banner.png", social)
a.file("new-patient-form.pdf", forms)
a.file("medical-history.pdf", forms)
a.file("consent-form.docx", forms)
a.file("hygiene-protocol.pdf", training)
a.file("fire-safety.pdf", training)
a.file("rota.xlsx", staff, edited=5)
rooms = ["reception", "waiting-room", "treatment-room", "x-ray-room", "sterilisation", "staff-room"]
for i in range(30):
    # Every third photo was uploaded in the same minute as the previous one
    # (a batch upload), so sorting by date exercises the tie-break on id.
    a.file(f"{rooms[i % len(rooms)]}-{i // len(rooms) + 1:02d}.jpg", photos, minutes=0 if i % 3 == 2 else 7)

b = Account("demoLocBravo00000002", "Bravo", datetime.datetime(2025, 2, 10, 10, 0, tzinfo=datetime.timezone.utc))
exercises = b.folder("Exercise Sheets")
b.file("logo.png")
b.file("knee-rehab.pdf", exercises)
b.file("shoulder-mobility.pdf", exercises)

c = Account("demoLocCharlie000003", "Charl", datetime.datetime(2025, 2, 12, 8, 0, tzinfo=datetime.timezone.utc))
c.file("roof-inspection-checklist.pdf")

out = pathlib.Path(__file__).resolve().parent.parent / "internal/demo/data/medias.json"
out.write_text(json.dumps({"files": entries}, indent=1, ensure_ascii=False) + "\n")
print(f"wrote {len(entries)} entries to {out}")
