package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/gen"
)

// The demo users of both companies: demoUsrNorth<n> (demoCompanyNorthwind)
// and demoUsrSouth<n> (demoCompanySouthwind).
//
// What the data shows:
//   - Northwind has 40 users: agency staff on northwind.example, account
//     staff on alphadental.example and bravophysio.example (shared domains),
//     with varied roles and permissions.
//   - Four Northwind users are deleted; one of them,
//     sam.rivera@alphadental.example, shares its address with an active user
//     (rehired), so the deleted filter decides which of the two a search finds.
//   - casey.morgan@freelance.example is a user of both companies: a search in
//     one company never returns the other's.

type user struct {
	ID               string   `json:"id"`
	CompanyID        string   `json:"companyId"`
	Name             string   `json:"name"`
	FirstName        string   `json:"firstName"`
	LastName         string   `json:"lastName"`
	Email            string   `json:"email"`
	Phone            string   `json:"phone"`
	Extension        string   `json:"extension"`
	Permissions      obj      `json:"permissions"`
	Scopes           []string `json:"scopes"`
	Roles            roles    `json:"roles"`
	Deleted          bool     `json:"deleted"`
	LCPhone          obj      `json:"lcPhone"`
	PlatformLanguage string   `json:"platformLanguage"`
}

type roles struct {
	Type               string   `json:"type"`
	Role               string   `json:"role"`
	LocationIDs        []string `json:"locationIds"`
	RestrictSubAccount bool     `json:"restrictSubAccount"`
}

var (
	userLanguages  = []string{"en_US", "en_US", "en_US", "es", "fr_CA", "de", "nl", "pt_BR", "it"}
	userFirstNames = []string{"Ava", "Liam", "Mia", "Noah", "Zoe", "Ethan", "Ivy", "Lucas", "Nora", "Omar",
		"Priya", "Quinn", "Rosa", "Tara", "Uma", "Victor", "Wen", "Xavier", "Yara", "Abel",
		"Bea", "Cole", "Dara", "Eli", "Fay", "Gus", "Hana", "Ian", "Jade", "Kofi",
		"Lena", "Milo", "Nia", "Otto", "Pia", "Rhea"}
	adminScopes = []string{"campaigns.readonly", "campaigns.write", "contacts.write", "conversations.readonly",
		"conversations.write", "medias.readonly", "medias.write", "opportunities.write",
		"payments.write", "settings.write", "surveys.write", "workflows.readonly"}
	userScopes = []string{"contacts.write", "conversations.readonly", "conversations.write",
		"calendars.readonly", "opportunities.write"}
)

// userMaker draws the users' random parts from one generator, in order.
type userMaker struct{ rng draws }

func (m userMaker) user(company string, n int, first, last, email, roleType, role string, locations []string, deleted bool) user {
	rng := m.rng
	short, companyID := "South", demo.CompanySouth
	if company == demo.CompanyNorth {
		short, companyID = "North", demo.CompanyNorth
	}
	u := user{
		ID:        fmt.Sprintf("demoUsr%s%08d", short, n),
		CompanyID: companyID,
		Name:      first + " " + last,
		FirstName: first,
		LastName:  last,
		Email:     email,
		Phone:     fmt.Sprintf("+1555%d", rng.between(1000000, 9999999)),
		Roles: roles{Type: roleType, Role: role, LocationIDs: locations,
			RestrictSubAccount: roleType == "agency" && role == "user"},
		Deleted:     deleted,
		Permissions: obj{},
		LCPhone:     obj{},
	}
	if rng.chance(0.3) {
		u.Extension = strconv.Itoa(rng.between(100, 999))
	}
	u.PlatformLanguage = pick(rng, userLanguages)
	if role == "admin" {
		u.Scopes = pickN(rng, adminScopes, rng.between(6, len(adminScopes)))
		// Some admins see the ad and attribution reports and build websites.
		if rng.chance(0.5) {
			u.Permissions = append(u.Permissions, kv{"searchAdsReportingEnabled", true},
				kv{"socialAdsReportingEnabled", true}, kv{"attributionsReportingEnabled", true})
		}
		if rng.chance(0.4) {
			u.Permissions = append(u.Permissions, kv{"websitesEnabled", true})
		}
	} else {
		u.Scopes = pickN(rng, userScopes, rng.between(2, len(userScopes)))
		// Users see only what is assigned to them and stay out of money and settings.
		u.Permissions = append(u.Permissions, kv{"assignedDataOnly", true}, kv{"settingsEnabled", false},
			kv{"paymentsEnabled", false}, kv{"refundsEnabled", false}, kv{"exportPaymentsEnabled", false})
		if rng.chance(0.4) {
			u.Permissions = append(u.Permissions, kv{"campaignsReadOnly", true}, kv{"workflowsReadOnly", true})
		}
		if rng.chance(0.3) {
			u.Permissions = append(u.Permissions, kv{"bulkRequestsEnabled", false})
		}
	}
	slices.Sort(u.Scopes)
	for _, loc := range locations {
		if rng.chance(0.4) {
			u.LCPhone = append(u.LCPhone, kv{loc, fmt.Sprintf("+1555%d", rng.between(1000000, 9999999))})
		}
	}
	return u
}

func users() (string, error) {
	m := userMaker{newDraws(20260615)}
	north, south := demo.CompanyNorth, demo.CompanySouth
	// Distinct name pairs, spread out: every 13th of all pairs.
	var names [][2]string
	i := 0
	for _, first := range userFirstNames {
		for _, last := range lastNames {
			if i%13 == 0 {
				names = append(names, [2]string{first, last})
			}
			i++
		}
	}
	address := func(first, last, domain string) string {
		return strings.ToLower(first) + "." + strings.ToLower(last) + "@" + domain
	}
	both := []string{alpha.id, bravo.id}

	var out []user
	n := 0
	// Northwind: 6 agency staff, then account staff of Alpha and Bravo.
	for i := range 6 {
		n++
		first, last := names[n-1][0], names[n-1][1]
		role := "user"
		if i < 3 {
			role = "admin"
		}
		out = append(out, m.user(north, n, first, last, address(first, last, "northwind.example"), "agency", role, both, false))
	}
	for i := range 31 {
		n++
		first, last := names[n-1][0], names[n-1][1]
		domain, locations := "alphadental.example", []string{alpha.id}
		switch {
		case i >= 28:
			locations = both
		case i >= 20:
			domain, locations = "bravophysio.example", []string{bravo.id}
		}
		role := "user"
		if i%6 == 0 {
			role = "admin"
		}
		deleted := i == 7 || i == 15 || i == 24
		out = append(out, m.user(north, n, first, last, address(first, last, domain), "account", role, locations, deleted))
	}
	// Sam Rivera left (deleted) and was rehired (a new, active user): same address.
	out = append(out,
		m.user(north, n+1, "Sam", "Rivera", "sam.rivera@alphadental.example", "account", "user", []string{alpha.id}, true),
		m.user(north, n+2, "Sam", "Rivera", "Sam.Rivera@alphadental.example", "account", "user", []string{alpha.id}, false),
		// A freelancer who works for both companies.
		m.user(north, n+3, "Casey", "Morgan", "casey.morgan@freelance.example", "account", "user", []string{alpha.id}, false),
	)

	for s, name := range [][2]string{{"Dana", "Brooks"}, {"Eric", "Holm"}, {"Fiona", "Reyes"}, {"Glen", "Tanaka"},
		{"Hugo", "Varga"}, {"Iris", "Wolfe"}, {"Jon", "Yilmaz"}} {
		n := s + 1
		role, roleType := "user", "account"
		if n <= 2 {
			role = "admin"
		}
		if n == 1 {
			roleType = "agency"
		}
		out = append(out, m.user(south, n, name[0], name[1], address(name[0], name[1], "southwind.example"), roleType, role, []string{charlie.id}, false))
	}
	out = append(out, m.user(south, 8, "Casey", "Morgan", "casey.morgan@freelance.example", "account", "admin", []string{charlie.id}, false))
	return gen.JSONFile(map[string]any{"users": out})
}
