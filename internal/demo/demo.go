// Package demo loads the demo dataset: accounts and, per area, the records
// every operation acts on. The dataset ships as one JSON file per part under
// data/ (accounts.json, contacts.json, ...), embedded in the binaries; a
// dataset given on the command line is one JSON object with the same parts as
// keys.
//
// Most parts, and the sample events under events/, are made by the command
// in gen/ (go generate ./internal/demo); a test fails when a committed file
// differs from what it makes. The parts gen does not make (accounts,
// associations, brand-boards, emails, voice-ai) are written by hand.
package demo

//go:generate go run ./gen

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/app"
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

// ReadFile reads a dataset from one JSON object whose keys are parts.
func ReadFile(name string) (Dataset, error) {
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var ds Dataset
	if err := json.Unmarshal(raw, &ds); err != nil {
		return nil, fmt.Errorf("%s: a dataset is one JSON object keyed by part (accounts, contacts, ...): %w", name, err)
	}
	return ds, nil
}

type accountsPart struct {
	Accounts []struct {
		ID        string `json:"id"`
		CompanyID string `json:"companyId"`
		Name      string `json:"name"`
	} `json:"accounts"`
}

// Summary tells what a load did.
type Summary struct {
	Accounts int
	Parts    []string
}

// Load writes the dataset: accounts first, then each area's part. Accounts
// that exist already are kept; area records are written as given, so loading
// twice leaves the same data.
func Load(ctx context.Context, deps app.Deps, ds Dataset, areas []app.Area) (Summary, error) {
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
		var p accountsPart
		if err := json.Unmarshal(raw, &p); err != nil {
			return sum, fmt.Errorf("accounts: %w", err)
		}
		store := accounts.NewRegistry(deps.Table, deps.Clock)
		for _, a := range p.Accounts {
			if _, err := store.Create(ctx, a.ID, a.CompanyID, a.Name); err != nil && err != accounts.ErrExists {
				return sum, fmt.Errorf("account %s: %w", a.ID, err)
			}
			sum.Accounts++
		}
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
		if err := a.Seed(ctx, deps, raw); err != nil {
			return sum, fmt.Errorf("seed %s: %w", a.Name, err)
		}
		sum.Parts = append(sum.Parts, a.Name)
	}
	return sum, nil
}
