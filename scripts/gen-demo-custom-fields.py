#!/usr/bin/env python3
"""Generates internal/demo/data/custom-fields.json: the demo custom fields.

Deterministic: running it again gives the same file. Ids are fixed and
readable: demoFld<Object><Field><Account>, e.g. demoFldPetBreedAlpha.
Fields of the custom objects custom_object.pet and custom_object.vehicle and
of the company object (business) can be updated; the contact field
demoFldCtcColorAlpha is there to show the refusal.
"""
import json, os

ACCOUNTS = {"Alpha": "demoLocAlpha00000001", "Bravo": "demoLocBravo00000002"}
# Object short name -> (objectKey, fieldKey prefix, parent folder id part).
OBJECTS = {
    "Pet": ("custom_object.pet", "custom_object.pet.", "Pet"),
    "Veh": ("custom_object.vehicle", "custom_object.vehicle.", "Vehicle"),
    "Biz": ("business", "business.", "Business"),
    "Ctc": ("contact", "contact.", "Contact"),
}


def opts(*labels, urls=None):
    urls = urls or {}
    out = []
    for label in labels:
        key = "".join(c if c.isalnum() else "_" for c in label.lower()).strip("_")
        o = {"key": key, "label": label}
        if label in urls:
            o["url"] = urls[label]
        out.append(o)
    return out


# (account, object, id part, field name, field key name, dataType, extra)
FIELDS = [
    ("Alpha", "Pet", "Breed", "Breed", "breed", "SINGLE_OPTIONS",
     {"options": opts("Labrador", "Beagle", "Poodle"), "placeholder": "Pick a breed"}),
    ("Alpha", "Pet", "Vaccines", "Vaccinations", "vaccinations", "MULTIPLE_OPTIONS",
     {"options": opts("Rabies", "Distemper", "Parvovirus")}),
    ("Alpha", "Pet", "Size", "Size", "size", "RADIO",
     {"options": opts("Small", "Medium", "Large", urls={"Large": "https://example.com/pets/sizes#large"}),
      "allowCustomOption": True}),
    ("Alpha", "Pet", "Notes", "Care notes", "care_notes", "LARGE_TEXT",
     {"description": "Feeding and care instructions"}),
    ("Alpha", "Pet", "Weight", "Weight (kg)", "weight_kg", "NUMERICAL", {}),
    ("Alpha", "Pet", "Birthday", "Birthday", "birthday", "DATE", {}),
    ("Alpha", "Pet", "Records", "Medical records", "medical_records", "FILE_UPLOAD",
     {"acceptedFormats": ".pdf", "maxFileLimit": 3}),
    ("Alpha", "Veh", "Make", "Make", "make", "SINGLE_OPTIONS",
     {"options": opts("Toyota", "Ford", "Honda")}),
    ("Alpha", "Veh", "Features", "Features", "features", "CHECKBOX",
     {"options": opts("Sunroof", "Heated seats", "Tow hitch")}),
    ("Alpha", "Veh", "Service", "Service dates", "service_dates", "TEXTBOX_LIST",
     {"options": opts("Last service", "Next service")}),
    ("Alpha", "Veh", "Mileage", "Mileage", "mileage", "NUMERICAL", {"placeholder": "e.g. 42000"}),
    ("Alpha", "Veh", "Papers", "Registration papers", "registration_papers", "FILE_UPLOAD",
     {"acceptedFormats": "all", "maxFileLimit": 5}),
    ("Alpha", "Biz", "Industry", "Industry", "industry", "SINGLE_OPTIONS",
     {"options": opts("Retail", "Manufacturing", "Software")}),
    ("Alpha", "Biz", "Channel", "Preferred channel", "preferred_channel", "RADIO",
     {"options": opts("Email", "Phone", "Chat"), "allowCustomOption": False}),
    ("Alpha", "Biz", "Revenue", "Annual revenue", "annual_revenue", "MONETORY", {}),
    ("Alpha", "Biz", "Phone", "Support phone", "support_phone", "PHONE", {}),
    ("Alpha", "Biz", "Contract", "Signed contract", "signed_contract", "FILE_UPLOAD",
     {"acceptedFormats": ".pdf", "maxFileLimit": 1}),
    ("Alpha", "Ctc", "Color", "Favorite color", "favorite_color", "SINGLE_OPTIONS",
     {"options": opts("Red", "Green", "Blue")}),
    ("Bravo", "Pet", "Breed", "Breed", "breed", "SINGLE_OPTIONS",
     {"options": opts("Husky", "Corgi")}),
    ("Bravo", "Biz", "Industry", "Industry", "industry", "SINGLE_OPTIONS",
     {"options": opts("Hospitality", "Logistics")}),
    ("Bravo", "Veh", "Papers", "Registration papers", "registration_papers", "FILE_UPLOAD",
     {"acceptedFormats": ".jpg", "maxFileLimit": 2}),
]

fields = []
for n, (acct, obj, part, name, key, dtype, extra) in enumerate(FIELDS):
    object_key, prefix, folder = OBJECTS[obj]
    added = f"2025-02-{3 + n:02d}T09:{15 + n:02d}:00.000Z"
    f = {
        "id": f"demoFld{obj}{part}{acct}",
        "locationId": ACCOUNTS[acct],
        "name": name,
        "showInForms": dtype != "LARGE_TEXT",
        "objectKey": object_key,
        "dataType": dtype,
        "parentId": f"demoFolder{folder}{acct}",
        "fieldKey": prefix + key,
        "dateAdded": added,
        "dateUpdated": added,
    }
    f.update(extra)
    fields.append(f)

out = os.path.join(os.path.dirname(__file__), "..", "internal", "demo", "data", "custom-fields.json")
with open(out, "w") as fh:
    json.dump({"customFields": fields}, fh, indent=1)
    fh.write("\n")
