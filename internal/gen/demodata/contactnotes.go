package main

import (
	"time"
)

// What the demo tasks carry besides the title, due date and state drawn
// with the contacts (when they were added, a body, the user they are
// assigned to), and each contact's notes. They are drawn from a source of
// their own, so that the contacts and tasks drawn before them stay as
// they were.

type note struct {
	ID        string `json:"id"`
	UserID    string `json:"userId,omitempty"`
	Body      string `json:"body"`
	Title     string `json:"title,omitempty"`
	Color     string `json:"color,omitempty"`
	Pinned    bool   `json:"pinned"`
	DateAdded string `json:"dateAdded"`
}

var (
	taskBodies = []string{
		"Ask whether the new appointment time works.",
		"Attach the treatment plan and the price list.",
		"Second reminder; the first went out last week.",
		"Offer the two open slots on Thursday morning.",
		"Check the insurance details before the renewal.",
	}
	noteTitles = []string{"First visit", "Call summary", "Billing", "Preferences", "Follow-up"}
	noteBodies = []string{
		"Prefers to be called after 5 pm on weekdays.",
		"Asked about payment in instalments; sent the options by e-mail.",
		"Came in through a friend's referral. Interested in the yearly plan.",
		"Left a voicemail about the missed appointment.\nNo answer yet.",
		"Allergic to latex: tell the team before each visit.",
		"Happy with the last visit; may leave a review.",
		"Wants invoices sent to the company address.",
	}
	noteColors = []string{"#FFAA00", "#4CAF50", "#2196F3", "#E91E63"}
	// Each account's users who may be assigned its tasks (active users of
	// its company with access to it).
	accountUsers = map[string][]string{
		alpha.id:   {"demoUsrNorth00000007", "demoUsrNorth00000008", "demoUsrNorth00000010", "demoUsrNorth00000013", "demoUsrNorth00000015"},
		bravo.id:   {"demoUsrNorth00000027", "demoUsrNorth00000028", "demoUsrNorth00000030"},
		charlie.id: {"demoUsrSouth00000001", "demoUsrSouth00000002"},
	}
)

// addTaskDetailsAndNotes completes the demo contacts' tasks (when they
// were added, a body for most, a user for some) and gives each contact one
// to three notes, numbered per account in contact order.
func addTaskDetailsAndNotes(contacts []contact) {
	rng := newDraws(20261128)
	noteNo := map[string]int{}
	for i := range contacts {
		c := &contacts[i]
		added, err := time.Parse(time.RFC3339, c.DateAdded)
		if err != nil {
			panic(err) // the generator writes these times itself
		}
		users := accountUsers[c.LocationID]
		for j := range c.Tasks {
			t := &c.Tasks[j]
			t.DateAdded = timestamp(added.Add(time.Duration(rng.between(1, 120)) * time.Minute))
			if rng.chance(0.7) {
				t.Body = pick(rng, taskBodies)
			}
			if rng.chance(0.6) {
				t.AssignedTo = pick(rng, users)
			}
		}
		acct := demoAccount{id: c.LocationID, short: shortOf(c.LocationID)}
		c.Notes = []note{}
		at := added
		for range rng.between(1, 3) {
			noteNo[c.LocationID]++
			at = at.Add(time.Duration(rng.between(10, 4000)) * time.Minute)
			n := note{
				ID:        acct.recordID("Nte", noteNo[c.LocationID]),
				UserID:    pick(rng, users),
				Body:      pick(rng, noteBodies),
				DateAdded: timestamp(at),
			}
			if rng.chance(0.5) {
				n.Title = pick(rng, noteTitles)
			}
			if rng.chance(0.3) {
				n.Color = pick(rng, noteColors)
			}
			n.Pinned = rng.chance(0.15)
			c.Notes = append(c.Notes, n)
		}
	}
}

// shortOf is the short name a demo account's record ids carry.
func shortOf(accountID string) string {
	for _, a := range []demoAccount{alpha, bravo, charlie} {
		if a.id == accountID {
			return a.short
		}
	}
	panic("not a demo account: " + accountID)
}
