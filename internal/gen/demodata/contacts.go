package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/gen"
)

// The demo contacts, their tasks and notes (contactnotes.go). Ids are fixed
// and readable: demoCtc<Account><n>, demoTsk<Account><n>, demoNte<Account><n>.

type contact struct {
	ID          string   `json:"id"`
	LocationID  string   `json:"locationId"`
	ContactName string   `json:"contactName"`
	FirstName   string   `json:"firstName"`
	LastName    string   `json:"lastName"`
	Email       string   `json:"email"`
	Phone       string   `json:"phone"`
	Source      string   `json:"source"`
	Country     string   `json:"country"`
	Timezone    string   `json:"timezone"`
	DateAdded   string   `json:"dateAdded"`
	Tags        []string `json:"tags"`
	// Details: a city from the time zone, for some a date of birth and
	// do-not-disturb, all derived from the contact's number (no draw, so
	// that the drawn values stay as they were).
	City        string       `json:"city,omitempty"`
	DateOfBirth string       `json:"dateOfBirth,omitempty"`
	DND         bool         `json:"dnd,omitempty"`
	DNDSettings *dndSettings `json:"dndSettings,omitempty"`
	Tasks       []task       `json:"tasks"`
	Notes       []note       `json:"notes"`
}

type dndSettings struct {
	Email dndSetting `json:"Email"`
}

type dndSetting struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

type task struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Body       string `json:"body,omitempty"`
	DueDate    string `json:"dueDate"`
	Completed  bool   `json:"completed"`
	AssignedTo string `json:"assignedTo,omitempty"`
	DateAdded  string `json:"dateAdded,omitempty"`
}

// demoAccount is a demo account and the short name its records' ids carry.
type demoAccount struct {
	id, short string
}

var (
	alpha   = demoAccount{demo.AccountAlpha, "Alpha"}
	bravo   = demoAccount{demo.AccountBravo, "Bravo"}
	charlie = demoAccount{demo.AccountCharlie, "Charl"}
)

// recordID is a readable demo id: demo<kind><Account><n, 8 digits>.
func (a demoAccount) recordID(kind string, n int) string {
	return fmt.Sprintf("demo%s%s%08d", kind, a.short, n)
}

var (
	contactFirstNames = []string{"Ava", "Liam", "Mia", "Noah", "Zoe", "Ethan", "Ivy", "Lucas", "Nora", "Omar",
		"Priya", "Quinn", "Rosa", "Sam", "Tara", "Uma", "Victor", "Wen", "Xavier", "Yara"}
	lastNames = []string{"Anders", "Baker", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito",
		"Jensen", "Khan", "Lopez", "Moreau", "Novak", "Okafor", "Patel", "Rossi", "Silva"}
	contactSources   = []string{"website form", "import", "referral", "facebook ad", "walk-in", "api"}
	contactCountries = []struct{ country, timezone, city string }{
		{"US", "America/New_York", "New York"}, {"US", "America/Los_Angeles", "Los Angeles"}, {"CA", "America/Toronto", "Toronto"},
		{"GB", "Europe/London", "London"}, {"DE", "Europe/Berlin", "Berlin"}, {"IN", "Asia/Kolkata", "Kolkata"},
	}
	contactTags = []string{"lead", "customer", "vip", "newsletter", "webinar", "trial"}
	taskTitles  = []string{"Call back", "Send proposal", "Follow up on invoice", "Book demo", "Check renewal"}
)

func contacts() (string, error) { return gen.JSONFile(map[string]any{"contacts": demoContacts()}) }

// demoContacts are the contacts of every demo account, in id order.
func demoContacts() []contact {
	rng := newDraws(20261121)
	var out []contact
	for _, acct := range []struct {
		demoAccount
		contacts int
	}{{alpha, 300}, {bravo, 30}, {charlie, 20}} {
		t := utc(2025, time.January, 6, 9, 0)
		taskNo := 0
		for i := 1; i <= acct.contacts; i++ {
			// Every fifth contact shares its predecessor's timestamp, so the
			// list order's tie-break on id is exercised by the demo data too.
			if i%5 != 0 {
				minutes := rng.between(30, 2880)
				seconds := rng.between(0, 59)
				t = t.Add(time.Duration(minutes)*time.Minute + time.Duration(seconds)*time.Second)
			}
			first, last := pick(rng, contactFirstNames), pick(rng, lastNames)
			place := pick(rng, contactCountries)
			c := contact{
				ID:          acct.recordID("Ctc", i),
				LocationID:  acct.id,
				ContactName: first + " " + last,
				FirstName:   first,
				LastName:    last,
				Email:       fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), i),
				Phone:       fmt.Sprintf("+1555%d", rng.between(1000000, 9999999)),
				Source:      pick(rng, contactSources),
				Country:     place.country,
				Timezone:    place.timezone,
				City:        place.city,
				DateAdded:   timestamp(t),
				Tasks:       []task{},
			}
			if i%4 == 1 {
				c.DateOfBirth = fmt.Sprintf("%d-%02d-%02d", 1960+i%40, 1+i%12, 1+i%28)
			}
			if i%10 == 7 {
				c.DND = true
				c.DNDSettings = &dndSettings{Email: dndSetting{Status: "active", Message: "Asked for no e-mail"}}
			}
			c.Tags = pickN(rng, contactTags, rng.between(0, 2))
			slices.Sort(c.Tags)
			for range pick(rng, []int{1, 1, 0, 2}) {
				taskNo++
				due := t.AddDate(0, 0, rng.between(1, 30))
				c.Tasks = append(c.Tasks, task{
					ID:        acct.recordID("Tsk", taskNo),
					Title:     pick(rng, taskTitles),
					DueDate:   timestamp(due),
					Completed: rng.chance(0.3),
				})
			}
			out = append(out, c)
		}
	}
	addTaskDetailsAndNotes(out)
	return out
}
