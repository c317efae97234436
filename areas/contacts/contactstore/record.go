package contactstore

import (
	"slices"
	"strings"
)

// Record is a contact whole: what the list shows (Contact) and the rest
// of what the contact operations read and write (Details). The contact
// item and every index item carry it, so that a search can judge any
// stored field without reading the contact again.
type Record struct {
	Contact
	Details
}

// Details are a contact's fields beyond the list's.
type Details struct {
	Gender     string `dynamodbav:"gender,omitempty" json:"gender,omitempty"`
	Address1   string `dynamodbav:"address1,omitempty" json:"address1,omitempty"`
	City       string `dynamodbav:"city,omitempty" json:"city,omitempty"`
	State      string `dynamodbav:"state,omitempty" json:"state,omitempty"`
	PostalCode string `dynamodbav:"postalCode,omitempty" json:"postalCode,omitempty"`
	Website    string `dynamodbav:"website,omitempty" json:"website,omitempty"`
	// DND is "do not disturb" on every channel.
	DND                bool                `dynamodbav:"dnd,omitempty" json:"dnd"`
	DNDSettings        *DNDSettings        `dynamodbav:"dndSettings,omitempty" json:"dndSettings,omitempty"`
	InboundDNDSettings *InboundDNDSettings `dynamodbav:"inboundDndSettings,omitempty" json:"inboundDndSettings,omitempty"`
	// DateOfBirth is a calendar date, YYYY-MM-DD.
	DateOfBirth string `dynamodbav:"dateOfBirth,omitempty" json:"dateOfBirth,omitempty"`
	// AssignedTo is the id of the user the contact is assigned to.
	AssignedTo  string `dynamodbav:"assignedTo,omitempty" json:"assignedTo,omitempty"`
	DateUpdated string `dynamodbav:"dateUpdated,omitempty" json:"dateUpdated,omitempty"`
}

// DNDSettings are the contact's "do not disturb" per channel, as the public
// API names them.
type DNDSettings struct {
	Call     *DNDSetting `dynamodbav:"Call,omitempty" json:"Call,omitempty"`
	Email    *DNDSetting `dynamodbav:"Email,omitempty" json:"Email,omitempty"`
	SMS      *DNDSetting `dynamodbav:"SMS,omitempty" json:"SMS,omitempty"`
	WhatsApp *DNDSetting `dynamodbav:"WhatsApp,omitempty" json:"WhatsApp,omitempty"`
	GMB      *DNDSetting `dynamodbav:"GMB,omitempty" json:"GMB,omitempty"`
	FB       *DNDSetting `dynamodbav:"FB,omitempty" json:"FB,omitempty"`
}

// DNDSetting is one channel's setting.
type DNDSetting struct {
	Status  string `dynamodbav:"status" json:"status"`
	Message string `dynamodbav:"message,omitempty" json:"message,omitempty"`
	Code    string `dynamodbav:"code,omitempty" json:"code,omitempty"`
}

// InboundDNDSettings hold the setting for inbound messages of every channel.
type InboundDNDSettings struct {
	All *InboundDNDSetting `dynamodbav:"all,omitempty" json:"all,omitempty"`
}

// InboundDNDSetting is the inbound setting.
type InboundDNDSetting struct {
	Status  string `dynamodbav:"status" json:"status"`
	Message string `dynamodbav:"message,omitempty" json:"message,omitempty"`
}

// Clone returns a copy of r that shares nothing with it, for a change to
// work on.
func (r Record) Clone() Record {
	c := r
	c.Tags = slices.Clone(r.Tags)
	c.CustomFields = slices.Clone(r.CustomFields)
	c.Followers = slices.Clone(r.Followers)
	if r.DNDSettings != nil {
		d := *r.DNDSettings
		for _, ch := range []**DNDSetting{&d.Call, &d.Email, &d.SMS, &d.WhatsApp, &d.GMB, &d.FB} {
			if *ch != nil {
				v := **ch
				*ch = &v
			}
		}
		c.DNDSettings = &d
	}
	if r.InboundDNDSettings != nil {
		in := *r.InboundDNDSettings
		if in.All != nil {
			v := *in.All
			in.All = &v
		}
		c.InboundDNDSettings = &in
	}
	return c
}

// EmailKey is how an e-mail address is compared: trimmed, lower-cased.
func EmailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// PhoneKey is how a phone number is compared: its digits (at most 15,
// E.164's longest).
func PhoneKey(phone string) string { return digits(phone, maxPhoneDigits) }
