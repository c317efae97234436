package main

import "github.com/bizplatform/api/internal/gen"

// The demo campaigns and surveys: ids demoCmp<Account><n> and
// demoSrv<Account><n>. Alpha has records of every kind, Bravo and Charlie a
// few each, to prove one account never sees another's. The lists answer
// them in id order.

type campaign struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	LocationID string `json:"locationId"`
}

func campaigns() (string, error) {
	type row = [2]string // status, name
	out := numbered("Cmp", []accountRows{
		{alpha, []row{
			{"published", "Spring check-up reminder"},
			{"draft", "Teeth whitening offer"},
			{"published", "New patient welcome series"},
			{"published", "Six-month recall"},
			{"draft", "Referral rewards launch"},
			{"published", "Missed appointment win-back"},
			{"draft", "Holiday hours announcement"},
			{"published", "Review request after visit"},
		}},
		{bravo, []row{
			{"published", "Back pain workshop invite"},
			{"draft", "Sports injury season"},
		}},
		{charlie, []row{
			{"published", "Storm damage inspection"},
		}},
	}, func(id, loc string, r row) campaign {
		return campaign{ID: id, Name: r[1], Status: r[0], LocationID: loc}
	})
	return gen.JSONFile(map[string]any{"campaigns": out})
}

type survey struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	LocationID string `json:"locationId"`
	Type       string `json:"type"`
}

// surveys: Alpha has 26 records (more than two default pages of 10), six of
// them folders.
func surveys() (string, error) {
	type row = [2]string // type, name
	out := numbered("Srv", []accountRows{
		{alpha, []row{
			{"folder", "Patient feedback"},
			{"survey", "Post-visit satisfaction"},
			{"survey", "New patient intake"},
			{"survey", "Hygiene appointment follow-up"},
			{"folder", "Marketing"},
			{"survey", "How did you hear about us?"},
			{"survey", "Teeth whitening interest"},
			{"survey", "Invisalign consultation pre-screen"},
			{"survey", "Net promoter score (quarterly)"},
			{"folder", "Staff"},
			{"survey", "Staff onboarding checklist"},
			{"survey", "Team training feedback"},
			{"survey", "Emergency appointment triage"},
			{"survey", "Insurance information update"},
			{"folder", "Archived"},
			{"survey", "Holiday opening hours poll"},
			{"survey", "Children's dentistry feedback"},
			{"survey", "Referral program sign-up"},
			{"survey", "Payment plan interest"},
			{"folder", "Events"},
			{"survey", "Open day registration"},
			{"survey", "Oral health workshop feedback"},
			{"survey", "Waiting room experience"},
			{"survey", "Online booking usability"},
			{"folder", "Templates"},
			{"survey", "Cancellation reason"},
		}},
		{bravo, []row{{"survey", "Physio session feedback"}, {"survey", "Injury intake"}, {"folder", "Rehab programs"}}},
		{charlie, []row{{"survey", "Roof inspection request"}, {"survey", "Job completion feedback"}}},
	}, func(id, loc string, r row) survey { return survey{ID: id, Name: r[1], LocationID: loc, Type: r[0]} })
	return gen.JSONFile(map[string]any{"surveys": out})
}

// accountRows are an account's records of a list, each two strings.
type accountRows struct {
	acct demoAccount
	rows [][2]string
}

// numbered makes the records of every account, numbered from 1 per account
// under ids demo<kind><Account><n>.
func numbered[T any](kind string, accounts []accountRows, record func(id, locationID string, row [2]string) T) []T {
	var out []T
	for _, a := range accounts {
		for i, r := range a.rows {
			out = append(out, record(a.acct.recordID(kind, i+1), a.acct.id, r))
		}
	}
	return out
}
