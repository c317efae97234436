package contactstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// The contact operations' writes. Each reads what it decides on strongly
// consistent, then commits the contact item, its index items and counters,
// its claims and the change's events in one transaction (more only when
// the index changes exceed one: index.go), on condition that the contact
// is still as read; a writer that lost the race starts again from the
// item its failed condition returned, up to putAttempts times, then
// answers 503.

// NewID is a new contact's id: 20 letters and digits, as the public API's.
func NewID() string { return ids.Alnum20() }

// MaxRecordBytes bounds a contact's record (as JSON): every index item
// repeats it, so it bounds what one write of the contact costs (a
// transaction holds at most 4 MB, 100 writes; each write 2 units per KB)
// whatever the fields' own bounds allow together.
const MaxRecordBytes = 16 * 1024

// sizeProblem is the refusal of a record larger than MaxRecordBytes.
func sizeProblem(r Record) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if len(raw) <= MaxRecordBytes {
		return nil
	}
	return apierror.Invalid(fmt.Sprintf("contact: its fields would take %d bytes, and a contact holds at most %d (the search index keeps a copy of it under each of its keys): shorten its custom field values, tags or other texts", len(raw), MaxRecordBytes))
}

// GetRecord returns the account's contact whole, or nil when it has none
// with that id. The read is strongly consistent: a client reads its own
// write at once.
func (s *Contacts) GetRecord(ctx context.Context, accountID, id string) (*Record, error) {
	item, err := storage.Get[contactItem](ctx, s.table, contactKey(accountID, id))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Record, nil
}

// Create stores the new contact r (its id, locationId and dateAdded set),
// indexed, with its ContactCreate event. Under the account's duplicate
// settings a value of r that another contact has is a *DuplicateError.
func (s *Contacts) Create(ctx context.Context, r Record, now time.Time) error {
	st, _, err := s.readAccount(ctx, r.LocationID, true, nil, nil)
	if err != nil {
		return err
	}
	return s.create(ctx, r, st, st.settings.unique(), now)
}

// create writes the new contact r; the claims of unique must be its alone.
func (s *Contacts) create(ctx context.Context, r Record, st accountState, unique []string, now time.Time) error {
	if err := sizeProblem(r); err != nil {
		return err
	}
	added, err := time.Parse(time.RFC3339, r.DateAdded)
	if err != nil {
		return err
	}
	fresh := false
	if !st.ready {
		if fresh, err = s.freshAccount(ctx, r.LocationID); err != nil {
			return err
		}
	}
	item := newContactItem(r, added.UnixMilli())
	return s.write(ctx, nil, &item, writeOptions{
		events: eventsOf([]events.Type{ContactCreated}, r, now), nEvents: 1, unique: unique, fresh: fresh,
	})
}

// Update changes the account's contact id with change and returns the
// contact as stored after, or nil when the account has no such contact.
// change works on a copy of the stored record and may run once per
// attempt; storage.ErrNoChange from it, or a change that leaves the record
// as it was, writes nothing (no event) and returns the record as stored.
// Another error from change ends the update with it. A value the change
// gives the contact that another contact has, when the account refuses
// duplicates, is a *DuplicateError.
func (s *Contacts) Update(ctx context.Context, accountID, id string, now time.Time, change func(*Record) error) (*Record, error) {
	key := contactKey(accountID, id)
	st, old, err := s.readAccount(ctx, accountID, false, nil, &key)
	if err != nil {
		return nil, err
	}
	return s.update(ctx, key, old, st.settings.unique(), now, change)
}

// update runs Update's cycles from the stored item old.
func (s *Contacts) update(ctx context.Context, key storage.Key, old *contactItem, unique []string, now time.Time, change func(*Record) error) (*Record, error) {
	for attempt := 1; ; attempt++ {
		if old == nil {
			return nil, nil
		}
		next := *old
		next.Record = old.Record.Clone()
		switch err := change(&next.Record); {
		case errors.Is(err, storage.ErrNoChange):
			return &old.Record, nil
		case err != nil:
			return nil, err
		}
		next.ID, next.LocationID, next.DateAdded = old.ID, old.LocationID, old.DateAdded // never changed
		types := changeEvents(&old.Record, &next.Record)
		if len(types) == 0 {
			return &old.Record, nil
		}
		if err := sizeProblem(next.Record); err != nil {
			return nil, err
		}
		next.DateUpdated = clock.Timestamp(now)
		err := s.write(ctx, old, &next, writeOptions{events: eventsOf(types, next.Record, now), nEvents: len(types), unique: unique})
		switch {
		case err == nil:
			return &next.Record, nil
		case !storage.IsConditionFailed(err):
			return nil, err
		case attempt == putAttempts:
			return nil, overtaken(err)
		}
		// Written meanwhile: start again from the item the condition found.
		if old, err = storage.FailedConditionItem[contactItem](err, key); err != nil {
			return nil, err
		}
		if err := retryPause(ctx, attempt); err != nil {
			return nil, err
		}
	}
}

// Delete deletes the account's contact with its tasks and notes, its index
// items and its claims, and records its ContactDelete event; it reports
// false when there is no such contact (or a concurrent delete took it
// first). The children are read strongly consistent at the ChildRev the
// contact item was read with, and each transaction of the delete is
// conditional on it: a task or note created meanwhile makes the delete
// read them again, so that none is left without its contact.
func (s *Contacts) Delete(ctx context.Context, accountID, id string, now time.Time) (bool, error) {
	key := contactKey(accountID, id)
	old, err := storage.Get[contactItem](ctx, s.table, key)
	for attempt := 1; err == nil; attempt++ {
		if old == nil {
			return false, nil
		}
		var children []storage.Key
		if children, err = s.children(ctx, accountID, id); err != nil {
			return false, err
		}
		err = s.write(ctx, old, nil, writeOptions{
			events: eventsOf([]events.Type{ContactDeleted}, old.Record, now), nEvents: 1, children: children,
		})
		switch {
		case err == nil:
			return true, nil
		case !storage.IsConditionFailed(err):
			return false, err
		case attempt == putAttempts:
			return false, overtaken(err)
		}
		if old, err = storage.FailedConditionItem[contactItem](err, key); err == nil {
			err = retryPause(ctx, attempt)
		}
	}
	return false, err
}

// children are the keys of the contact's tasks and notes, read strongly
// consistent, one Query per kind at once.
func (s *Contacts) children(ctx context.Context, accountID, contactID string) ([]storage.Key, error) {
	prefixes := childPrefixes(contactID)
	found := make([][]storage.Key, len(prefixes))
	errs := make([]error, len(prefixes))
	var wg sync.WaitGroup
	for i, p := range prefixes {
		wg.Add(1)
		go func() { // not wg.Go: see searchWord
			defer wg.Done()
			found[i], errs[i] = storage.QueryPartition[storage.Key](ctx, s.table, storage.AccountPK(accountID), p)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return slices.Concat(found...), nil
}

// Upsert is an upsert's request, as the handler read it.
type Upsert struct {
	AccountID string
	// Values are the e-mail and phone the request sends, as ClaimValues
	// gives them (a field left out: none).
	Values map[string]string
	// CreateNewIfAllowed creates without looking when the account allows
	// duplicates.
	CreateNewIfAllowed bool
	// New is the contact the request creates, given its id.
	New func(id string) Record
	// Apply applies the request to an existing contact, leaving out the
	// fields of skip: values another contact holds.
	Apply func(r *Record, skip []string) error
}

// Upsert updates the contact the request's e-mail or phone finds, under the
// account's duplicate settings (settings.go), or creates one, and reports
// whether it created. Two upserts of one new value at once make one
// contact: the create is conditional on no contact holding the request's
// identifying values, and the loser updates the winner's.
func (s *Contacts) Upsert(ctx context.Context, u Upsert, now time.Time) (*Record, bool, error) {
	for attempt := 1; ; attempt++ {
		st, _, err := s.readAccount(ctx, u.AccountID, true, u.Values, nil)
		if err != nil {
			return nil, false, err
		}
		if st.settings.AllowDuplicates && u.CreateNewIfAllowed {
			r := u.New(NewID())
			return &r, true, s.create(ctx, r, st, nil, now)
		}
		target, matched := "", ""
		for _, f := range st.settings.MatchOn {
			if u.Values[f] != "" && len(st.claims[f]) > 0 {
				target, matched = st.claims[f][0], f
				break
			}
		}
		if target != "" {
			var skip []string
			for _, f := range IdentityFields {
				if f != matched && u.Values[f] != "" && slices.ContainsFunc(st.claims[f], func(id string) bool { return id != target }) {
					skip = append(skip, f) // another contact's: left as the target has it
				}
			}
			key := contactKey(u.AccountID, target)
			old, err := storage.Get[contactItem](ctx, s.table, key)
			if err != nil {
				return nil, false, err
			}
			rec, err := s.update(ctx, key, old, st.settings.unique(), now, func(r *Record) error { return u.Apply(r, skip) })
			var dup *DuplicateError
			switch {
			case err == nil && rec != nil:
				return rec, false, nil
			case err != nil && !errors.As(err, &dup):
				return nil, false, err
			}
			// Deleted, or a value taken, meanwhile: look again.
		} else {
			r := u.New(NewID())
			err := s.create(ctx, r, st, st.settings.MatchOn, now)
			var dup *DuplicateError
			if !errors.As(err, &dup) {
				return &r, true, err
			}
			// Another upsert created it meanwhile: update that one.
		}
		if attempt == putAttempts {
			return nil, false, overtaken(errors.New("upsert: the contact kept changing"))
		}
		if err := retryPause(ctx, attempt); err != nil {
			return nil, false, err
		}
	}
}

// FindDuplicate returns the contact of the account an e-mail or a phone
// finds (either may be ""), looking the fields up in the order of the
// account's settings (then any other), or nil.
func (s *Contacts) FindDuplicate(ctx context.Context, accountID, email, phone string) (*Record, error) {
	values := map[string]string{FieldEmail: EmailKey(email), FieldPhone: PhoneKey(phone)}
	st, _, err := s.readAccount(ctx, accountID, false, values, nil)
	if err != nil {
		return nil, err
	}
	order := slices.Clone(st.settings.MatchOn)
	for _, f := range IdentityFields {
		if !slices.Contains(order, f) {
			order = append(order, f)
		}
	}
	for _, f := range order {
		for _, id := range st.claims[f] {
			rec, err := s.GetRecord(ctx, accountID, id)
			if err != nil || rec != nil {
				return rec, err
			}
		}
	}
	return nil, nil
}
