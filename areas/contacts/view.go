package contacts

import (
	"strings"

	"github.com/bizplatform/api/areas/contacts/contactstore"
)

// contactView is a contact as the contact operations answer it: the public
// API's contact (GetContectByIdSchema, CreateContactSchema), its lower-cased
// copies of the names and e-mail included. Lists are always arrays.
type contactView struct {
	ID                 string                           `json:"id"`
	Name               string                           `json:"name,omitempty"`
	LocationID         string                           `json:"locationId"`
	FirstName          string                           `json:"firstName,omitempty"`
	LastName           string                           `json:"lastName,omitempty"`
	FirstNameLowerCase string                           `json:"firstNameLowerCase,omitempty"`
	LastNameLowerCase  string                           `json:"lastNameLowerCase,omitempty"`
	FullNameLowerCase  string                           `json:"fullNameLowerCase,omitempty"`
	Email              string                           `json:"email,omitempty"`
	EmailLowerCase     string                           `json:"emailLowerCase,omitempty"`
	Phone              string                           `json:"phone,omitempty"`
	CompanyName        string                           `json:"companyName,omitempty"`
	Gender             string                           `json:"gender,omitempty"`
	Address1           string                           `json:"address1,omitempty"`
	City               string                           `json:"city,omitempty"`
	State              string                           `json:"state,omitempty"`
	PostalCode         string                           `json:"postalCode,omitempty"`
	Country            string                           `json:"country,omitempty"`
	Website            string                           `json:"website,omitempty"`
	Timezone           string                           `json:"timezone,omitempty"`
	Source             string                           `json:"source,omitempty"`
	DND                bool                             `json:"dnd"`
	DNDSettings        *contactstore.DNDSettings        `json:"dndSettings,omitempty"`
	InboundDNDSettings *contactstore.InboundDNDSettings `json:"inboundDndSettings,omitempty"`
	Tags               []string                         `json:"tags"`
	CustomFields       []contactstore.CustomValue       `json:"customFields"`
	DateOfBirth        string                           `json:"dateOfBirth,omitempty"`
	AssignedTo         string                           `json:"assignedTo,omitempty"`
	BusinessID         string                           `json:"businessId,omitempty"`
	Followers          []string                         `json:"followers"`
	DateAdded          string                           `json:"dateAdded"`
	DateUpdated        string                           `json:"dateUpdated,omitempty"`
}

// viewOf is r as the contact operations answer it.
func viewOf(r contactstore.Record) contactView {
	v := contactView{
		ID: r.ID, Name: r.ContactName, LocationID: r.LocationID, FirstName: r.FirstName, LastName: r.LastName,
		FirstNameLowerCase: strings.ToLower(r.FirstName), LastNameLowerCase: strings.ToLower(r.LastName),
		FullNameLowerCase: strings.ToLower(r.ContactName), Email: r.Email, EmailLowerCase: contactstore.EmailKey(r.Email),
		Phone: r.Phone, CompanyName: r.CompanyName, Gender: r.Gender, Address1: r.Address1, City: r.City, State: r.State,
		PostalCode: r.PostalCode, Country: r.Country, Website: r.Website, Timezone: r.Timezone, Source: r.Source,
		DND: r.DND, DNDSettings: r.DNDSettings, InboundDNDSettings: r.InboundDNDSettings,
		Tags: r.Tags, CustomFields: r.CustomFields, DateOfBirth: contactstore.BirthTimestamp(r.DateOfBirth),
		AssignedTo: r.AssignedTo, BusinessID: r.BusinessID, Followers: r.Followers,
		DateAdded: r.DateAdded, DateUpdated: r.DateUpdated,
	}
	if v.Tags == nil {
		v.Tags = []string{}
	}
	if v.CustomFields == nil {
		v.CustomFields = []contactstore.CustomValue{}
	}
	if v.Followers == nil {
		v.Followers = []string{}
	}
	return v
}
