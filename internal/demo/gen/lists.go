package main

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
	type row struct{ status, name string }
	var out []campaign
	for _, acct := range []struct {
		demoAccount
		rows []row
	}{
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
	} {
		for i, r := range acct.rows {
			out = append(out, campaign{ID: acct.recordID("Cmp", i+1), Name: r.name, Status: r.status, LocationID: acct.id})
		}
	}
	return indentedFile(map[string]any{"campaigns": out})
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
	type row struct{ typ, name string }
	var out []survey
	for _, acct := range []struct {
		demoAccount
		rows []row
	}{
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
	} {
		for i, r := range acct.rows {
			out = append(out, survey{ID: acct.recordID("Srv", i+1), Name: r.name, LocationID: acct.id, Type: r.typ})
		}
	}
	return indentedFile(map[string]any{"surveys": out})
}
