package main

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/bizplatform/api/internal/gen"
)

// The demo custom fields: demoFld<Object><Field><Account>, for example
// demoFldPetBreedAlpha. Fields of the custom objects custom_object.pet and
// custom_object.vehicle and of the company object (business) can be updated;
// the contact field demoFldCtcColorAlpha is there to show the refusal.

type customField struct {
	ID                string   `json:"id"`
	LocationID        string   `json:"locationId"`
	Name              string   `json:"name"`
	ShowInForms       bool     `json:"showInForms"`
	ObjectKey         string   `json:"objectKey"`
	DataType          string   `json:"dataType"`
	ParentID          string   `json:"parentId"`
	FieldKey          string   `json:"fieldKey"`
	DateAdded         string   `json:"dateAdded"`
	DateUpdated       string   `json:"dateUpdated"`
	Options           []option `json:"options,omitempty"`
	Placeholder       string   `json:"placeholder,omitempty"`
	AllowCustomOption *bool    `json:"allowCustomOption,omitempty"`
	Description       string   `json:"description,omitempty"`
	AcceptedFormats   string   `json:"acceptedFormats,omitempty"`
	MaxFileLimit      int      `json:"maxFileLimit,omitempty"`
}

type option struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	URL   string `json:"url,omitempty"`
}

// options keys each label by its letters and digits in lower case, other
// characters becoming "_" ("Heated seats" -> "heated_seats").
func options(labels ...string) []option {
	var out []option
	for _, label := range labels {
		key := strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return '_'
		}, strings.ToLower(label))
		out = append(out, option{Key: strings.Trim(key, "_"), Label: label})
	}
	return out
}

func customFields() (string, error) {
	// An object's short name: its objectKey, and the folder its fields are in.
	objects := map[string]struct{ key, folder string }{
		"Pet": {"custom_object.pet", "Pet"},
		"Veh": {"custom_object.vehicle", "Vehicle"},
		"Biz": {"business", "Business"},
		"Ctc": {"contact", "Contact"},
	}
	yes, no := true, false
	size := options("Small", "Medium", "Large")
	size[2].URL = "https://example.com/pets/sizes#large"
	rows := []struct {
		acct                    demoAccount
		object, part, name, key string
		dataType                string
		more                    customField
	}{
		{alpha, "Pet", "Breed", "Breed", "breed", "SINGLE_OPTIONS", customField{Options: options("Labrador", "Beagle", "Poodle"), Placeholder: "Pick a breed"}},
		{alpha, "Pet", "Vaccines", "Vaccinations", "vaccinations", "MULTIPLE_OPTIONS", customField{Options: options("Rabies", "Distemper", "Parvovirus")}},
		{alpha, "Pet", "Size", "Size", "size", "RADIO", customField{Options: size, AllowCustomOption: &yes}},
		{alpha, "Pet", "Notes", "Care notes", "care_notes", "LARGE_TEXT", customField{Description: "Feeding and care instructions"}},
		{alpha, "Pet", "Weight", "Weight (kg)", "weight_kg", "NUMERICAL", customField{}},
		{alpha, "Pet", "Birthday", "Birthday", "birthday", "DATE", customField{}},
		{alpha, "Pet", "Records", "Medical records", "medical_records", "FILE_UPLOAD", customField{AcceptedFormats: ".pdf", MaxFileLimit: 3}},
		{alpha, "Veh", "Make", "Make", "make", "SINGLE_OPTIONS", customField{Options: options("Toyota", "Ford", "Honda")}},
		{alpha, "Veh", "Features", "Features", "features", "CHECKBOX", customField{Options: options("Sunroof", "Heated seats", "Tow hitch")}},
		{alpha, "Veh", "Service", "Service dates", "service_dates", "TEXTBOX_LIST", customField{Options: options("Last service", "Next service")}},
		{alpha, "Veh", "Mileage", "Mileage", "mileage", "NUMERICAL", customField{Placeholder: "e.g. 42000"}},
		{alpha, "Veh", "Papers", "Registration papers", "registration_papers", "FILE_UPLOAD", customField{AcceptedFormats: "all", MaxFileLimit: 5}},
		{alpha, "Biz", "Industry", "Industry", "industry", "SINGLE_OPTIONS", customField{Options: options("Retail", "Manufacturing", "Software")}},
		{alpha, "Biz", "Channel", "Preferred channel", "preferred_channel", "RADIO", customField{Options: options("Email", "Phone", "Chat"), AllowCustomOption: &no}},
		{alpha, "Biz", "Revenue", "Annual revenue", "annual_revenue", "MONETORY", customField{}},
		{alpha, "Biz", "Phone", "Support phone", "support_phone", "PHONE", customField{}},
		{alpha, "Biz", "Contract", "Signed contract", "signed_contract", "FILE_UPLOAD", customField{AcceptedFormats: ".pdf", MaxFileLimit: 1}},
		{alpha, "Ctc", "Color", "Favorite color", "favorite_color", "SINGLE_OPTIONS", customField{Options: options("Red", "Green", "Blue")}},
		{bravo, "Pet", "Breed", "Breed", "breed", "SINGLE_OPTIONS", customField{Options: options("Husky", "Corgi")}},
		{bravo, "Biz", "Industry", "Industry", "industry", "SINGLE_OPTIONS", customField{Options: options("Hospitality", "Logistics")}},
		{bravo, "Veh", "Papers", "Registration papers", "registration_papers", "FILE_UPLOAD", customField{AcceptedFormats: ".jpg", MaxFileLimit: 2}},
	}
	var fields []customField
	for n, r := range rows {
		object := objects[r.object]
		added := fmt.Sprintf("2025-02-%02dT09:%02d:00.000Z", 3+n, 15+n)
		f := r.more
		f.ID = "demoFld" + r.object + r.part + r.acct.short
		f.LocationID = r.acct.id
		f.Name = r.name
		f.ShowInForms = r.dataType != "LARGE_TEXT"
		f.ObjectKey = object.key
		f.DataType = r.dataType
		f.ParentID = "demoFolder" + object.folder + r.acct.short
		f.FieldKey = object.key + "." + r.key
		f.DateAdded, f.DateUpdated = added, added
		fields = append(fields, f)
	}
	return gen.JSONFile(map[string]any{"customFields": fields})
}
