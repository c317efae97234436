package store

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/bizplatform/api/shared/validate"
)

// Limits of zone and rate fields.
const (
	maxNameLen        = 200
	maxDescriptionLen = 1000
	maxServices       = 50
	maxServiceLen     = 200
)

// The rules of single fields, used on request bodies and on the demo data.

func checkName(v *validate.Errors, field, name string) {
	if v.Check(strings.TrimSpace(name) != "", field+" must not be blank") {
		v.MaxLen(field, name, maxNameLen)
	}
}

// checkCountry checks the country at index i of a zone. seen holds the
// codes of the countries before it. withStates false skips the states (when
// some could not be read, their indexes would be wrong).
func checkCountry(v *validate.Errors, i int, c Country, seen map[string]int, withStates bool) {
	f := fmt.Sprintf("countries[%d]", i)
	switch {
	case c.Code == "":
		v.Addf("%s.code is required", f)
	case !isCountryCode[c.Code]:
		v.Addf("%s.code must be one of the allowed two-letter country codes, such as US, CA or GB", f)
	default:
		if first, dup := seen[c.Code]; dup {
			v.Addf("%s.code %s repeats countries[%d].code: each country may appear once", f, c.Code, first)
		} else {
			seen[c.Code] = i
		}
	}
	if !withStates {
		return
	}
	if len(c.States) > len(stateCodes) {
		v.Addf("%s.states must list at most %d states", f, len(stateCodes))
		return
	}
	states := map[string]int{}
	for j, s := range c.States {
		sf := fmt.Sprintf("%s.states[%d].code", f, j)
		switch {
		case s.Code == "":
			v.Addf("%s is required", sf)
		case !isStateCode[s.Code]:
			v.Addf("%s must be one of the allowed state codes, such as CA, ON or JP-13", sf)
		default:
			if first, dup := states[s.Code]; dup {
				v.Addf("%s %s repeats %s.states[%d].code: each state may appear once", sf, s.Code, f, first)
			} else {
				states[s.Code] = j
			}
		}
	}
}

// checkCountries checks a zone's whole list of countries.
func checkCountries(v *validate.Errors, countries []Country) {
	if len(countries) == 0 {
		v.Add("countries must list at least one country")
		return
	}
	seen := map[string]int{}
	for i, c := range countries {
		checkCountry(v, i, c, seen, true)
	}
}

// currencyPattern is compiled on first use, not at every cold start.
var currencyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{3}$`) })

func checkCurrency(v *validate.Errors, currency string) {
	v.Check(currencyPattern().MatchString(currency), "currency must be a three-letter ISO 4217 code such as USD")
}

// maxNumber bounds amounts, condition bounds and fee percentages: far
// beyond any real price or weight, and well inside what DynamoDB can store
// (a number past 1e125 is refused by the database, which would make the
// request fail with a 500 after validation).
const maxNumber = 1_000_000_000

func checkNonNegative(v *validate.Errors, field string, n float64, hint string) {
	if v.Check(n >= 0, field+" must be a non-negative number"+hint) {
		v.Check(n <= maxNumber, fmt.Sprintf("%s must be at most %d", field, maxNumber))
	}
}

const noBound = " (0 or null means no bound)"

func checkConditionType(v *validate.Errors, t string) {
	v.OneOf("conditionType", t, "none", "price", "weight")
}

func checkCarrierID(v *validate.Errors, id string) {
	v.Check(id == "" || validate.IsHexID(id), "shippingCarrierId must be a 24-character hexadecimal id")
}

func checkServices(v *validate.Errors, services []CarrierService) {
	if len(services) > maxServices {
		v.Addf("shippingCarrierServices must list at most %d services", maxServices)
		return
	}
	for i, s := range services {
		f := fmt.Sprintf("shippingCarrierServices[%d]", i)
		if v.Check(strings.TrimSpace(s.Name) != "", f+".name is required") {
			v.MaxLen(f+".name", s.Name, maxServiceLen)
		}
		if v.Check(strings.TrimSpace(s.Value) != "", f+".value is required") {
			v.MaxLen(f+".value", s.Value, maxServiceLen)
		}
	}
}

// checkRateConsistency checks the rules that relate fields of a rate r, as
// far as decided says the fields they read are known: on the merged rate
// (the stored rate with the update applied) every field is, since a request
// may change one side of a rule only; on the request alone, only the fields
// it sends (their values in r), so that a rule the request breaks by itself
// answers before the rate is looked up.
func checkRateConsistency(v *validate.Errors, r Rate, decided func(field string) bool) {
	if decided("minCondition") && decided("maxCondition") && r.MinCondition > 0 && r.MaxCondition > 0 && r.MinCondition > r.MaxCondition {
		v.Addf("minCondition (%g) must not be greater than maxCondition (%g)", r.MinCondition, r.MaxCondition)
	}
	if !decided("isCarrierRate") {
		return
	}
	if r.IsCarrierRate {
		if decided("shippingCarrierId") {
			v.Check(r.ShippingCarrierID != "", "shippingCarrierId is required when isCarrierRate is true")
		}
		return
	}
	const onlyCarrier = " is valid only when isCarrierRate is true (send null to remove it)"
	if decided("shippingCarrierId") && r.ShippingCarrierID != "" {
		v.Add("shippingCarrierId" + onlyCarrier)
	}
	if decided("percentageOfRateFee") && r.PercentageOfRateFee != nil && *r.PercentageOfRateFee != 0 {
		v.Add("percentageOfRateFee" + onlyCarrier)
	}
	if decided("shippingCarrierServices") && len(r.ShippingCarrierServices) > 0 {
		v.Add("shippingCarrierServices" + onlyCarrier)
	}
}

// everyField decides every rule: all of a whole rate's fields are known.
func everyField(string) bool { return true }

// checkRate checks every rule of a whole rate (the demo data).
func checkRate(v *validate.Errors, r Rate) {
	checkName(v, "name", r.Name)
	v.MaxLen("description", r.Description, maxDescriptionLen)
	checkCurrency(v, r.Currency)
	checkNonNegative(v, "amount", r.Amount, "")
	checkConditionType(v, r.ConditionType)
	checkNonNegative(v, "minCondition", r.MinCondition, noBound)
	checkNonNegative(v, "maxCondition", r.MaxCondition, noBound)
	checkCarrierID(v, r.ShippingCarrierID)
	if r.PercentageOfRateFee != nil {
		checkNonNegative(v, "percentageOfRateFee", *r.PercentageOfRateFee, "")
	}
	checkServices(v, r.ShippingCarrierServices)
	checkRateConsistency(v, r, everyField)
}
