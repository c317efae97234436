// Package demo loads the demo dataset: accounts and, per area, the records
// every operation acts on. The dataset ships as one JSON file per part under
// data/ (accounts.json, contacts.json, ...), embedded in the binaries; a
// dataset given on the command line is one JSON object holding the parts'
// record lists side by side (see ReadFile).
//
// Most parts are made by internal/gen/demodata (go generate ./...); a test
// fails when a committed file differs from what it makes. The parts it
// does not make (accounts, associations, brand-boards, emails, voice-ai)
// are written by hand.
package demo

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

//go:embed data/*.json
var files embed.FS

// AccountsPart is the dataset key of the accounts.
const AccountsPart = "accounts"

// Dataset maps a part ("accounts" or an area name) to its data.
type Dataset map[string]json.RawMessage

// Default returns the embedded demo dataset.
func Default() (Dataset, error) {
	entries, err := files.ReadDir("data")
	if err != nil {
		return nil, err
	}
	ds := Dataset{}
	for _, e := range entries {
		raw, err := files.ReadFile(path.Join("data", e.Name()))
		if err != nil {
			return nil, err
		}
		if !json.Valid(raw) {
			return nil, fmt.Errorf("demo data %s is not valid JSON", e.Name())
		}
		ds[strings.TrimSuffix(e.Name(), ".json")] = raw
	}
	return ds, nil
}

// ReadFile reads a dataset file: one JSON object holding, at its top level,
// the record lists of any parts, under the names the parts' files use
// ({"accounts": [...], "contacts": [...], "agents": [...]}), so that a part's
// file (data/contacts.json) is a dataset file too, and several parts' files
// merge into one. A name no part uses is an *UnknownNameError.
func ReadFile(name string) (Dataset, error) {
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	lists, err := topLevel(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: a dataset is one JSON object of record lists (%q: [...], ...): %w", name, AccountsPart, err)
	}
	partOf, err := partsByName()
	if err != nil {
		return nil, err
	}
	grouped := map[string]map[string]json.RawMessage{}
	for _, l := range lists {
		part, ok := partOf[l.name]
		if !ok {
			return nil, &UnknownNameError{Name: l.name, Known: slices.Sorted(maps.Keys(partOf))}
		}
		if grouped[part] == nil {
			grouped[part] = map[string]json.RawMessage{}
		}
		grouped[part][l.name] = l.value
	}
	ds := Dataset{}
	for part, lists := range grouped {
		if ds[part], err = json.Marshal(lists); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// UnknownNameError is a dataset file's top-level name that no part uses.
type UnknownNameError struct {
	Name  string
	Known []string
}

func (e *UnknownNameError) Error() string {
	return fmt.Sprintf("%q names no part's records; a dataset file holds %s", e.Name, strings.Join(e.Known, ", "))
}

// partsByName maps each top-level name of the parts' files (data/*.json) to
// its part: the names a dataset file may use.
func partsByName() (map[string]string, error) {
	ds, err := Default()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for part, raw := range ds {
		lists, err := topLevel(raw)
		if err != nil {
			return nil, fmt.Errorf("demo data %s: %w", part, err)
		}
		for _, l := range lists {
			out[l.name] = part
		}
	}
	return out, nil
}

type namedList struct {
	name  string
	value json.RawMessage
}

// topLevel splits a JSON object into its members, refusing a name given
// twice (encoding/json would keep the last silently).
func topLevel(raw []byte) ([]namedList, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("it is not a JSON object")
	}
	var out []namedList
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name := tok.(string)
		if seen[name] {
			return nil, fmt.Errorf("%q is given more than once", name)
		}
		seen[name] = true
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		out = append(out, namedList{name, value})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("it holds more than one JSON value")
	}
	return out, nil
}

type accountsPart struct {
	Accounts []seedAccount `json:"accounts"`
}

type seedAccount struct {
	ID        string `json:"id"`
	CompanyID string `json:"companyId"`
	Name      string `json:"name"`
}

// loadAccounts creates the accounts of the dataset's accounts part that do
// not exist yet, once every one passes the creation's rules, and returns how
// many the part holds.
// CompanyNames are the demo companies' names (the consent page and app
// webhooks show them).
var CompanyNames = map[string]string{CompanyNorth: "Northwind Agency", CompanySouth: "Southwind Agency"}

func loadAccounts(ctx context.Context, deps wiring.Deps, raw json.RawMessage) (int, error) {
	var p accountsPart
	if err := app.DecodeSeed(raw, &p); err != nil {
		return 0, err
	}
	err := app.CheckRecords(AccountsPart, p.Accounts, func(a *seedAccount) (string, string) { return "", a.ID }, func(a *seedAccount) error {
		var v validate.Errors
		v.ID("id", a.ID)
		v.ID("companyId", a.CompanyID)
		v.Check(strings.TrimSpace(a.Name) != "", "name is required")
		return v.Err()
	})
	if err != nil {
		return 0, err
	}
	store := accounts.NewRegistry(deps.Table, deps.Clock)
	for i, a := range p.Accounts {
		if _, err := store.Create(ctx, a.ID, a.CompanyID, a.Name); err != nil && !errors.Is(err, accounts.ErrExists) {
			return 0, &app.RecordError{List: AccountsPart, Index: i, ID: a.ID, Err: err}
		}
		if name, ok := CompanyNames[a.CompanyID]; ok {
			if err := store.SetCompanyName(ctx, a.CompanyID, name); err != nil {
				return 0, &app.RecordError{List: AccountsPart, Index: i, ID: a.ID, Err: err}
			}
		}
	}
	return len(p.Accounts), nil
}

// Summary tells what a load did.
type Summary struct {
	Accounts int
	Parts    []string
}

// Load writes the dataset: accounts first, then each area's part. Accounts
// that exist already are kept; area records are written as given, so loading
// twice leaves the same data.
func Load(ctx context.Context, deps wiring.Deps, ds Dataset, areas []app.Area) (Summary, error) {
	var sum Summary
	known := map[string]bool{AccountsPart: true}
	for _, a := range areas {
		known[a.Name] = true
	}
	for part := range ds {
		if !known[part] {
			return sum, fmt.Errorf("dataset part %q is neither accounts nor an area", part)
		}
	}
	if raw, ok := ds[AccountsPart]; ok {
		n, err := loadAccounts(ctx, deps, raw)
		if err != nil {
			return sum, fmt.Errorf("seed %s: %w", AccountsPart, err)
		}
		sum.Accounts = n
		sum.Parts = append(sum.Parts, AccountsPart)
	}
	for _, a := range areas {
		raw, ok := ds[a.Name]
		if !ok {
			continue
		}
		if a.Seed == nil {
			return sum, fmt.Errorf("area %s has demo data but no seed", a.Name)
		}
		// The area's seed names its part in its errors.
		if err := a.Seed(ctx, deps, raw); err != nil {
			return sum, err
		}
		sum.Parts = append(sum.Parts, a.Name)
	}
	return sum, nil
}
