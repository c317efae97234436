// Package app is what an area of the API is to the binaries that serve,
// seed and check it: its routes, its demo data, its events, and whether it
// keeps secrets or changes things. shared/apiserver assembles areas behind
// the request pipeline; internal/catalog lists them.
package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is one area of the API (one Lambda function).
type Area struct {
	// Name is the area's name, as in functions/<Name>.
	Name string
	// Routes returns the area's operations bound to their handlers.
	Routes func(wiring.Deps) []route.Route
	// Seed loads the area's part of a demo dataset (see internal/demo).
	// Nil when the area has no demo data.
	Seed func(ctx context.Context, deps wiring.Deps, data json.RawMessage) error
	// OpenKMSKey, set by areas that keep secrets users hand them, builds
	// the key source of the KMS key that seals them (kmskey.Open): only
	// the functions of such areas link the KMS client. See OpenSecrets.
	OpenKMSKey func(cfg aws.Config, keyID string) secrets.KeySource
	// GuardRetries makes the area's POST, PUT and DELETE operations safe to
	// retry with an Idempotency-Key (idempotency.GuardRoutes). An area with
	// such an operation must set it (apiserver.New refuses one without); a
	// read-only area leaves it nil, so its function links no code that
	// writes idempotency records and its policy grants no write.
	GuardRetries func(table *storage.Table, clk clock.Clock, logger *slog.Logger, routes []route.Route) []route.Route
	// Events are the event types the area's changes make (one each, in the
	// change's transaction): the area's part of the event catalogue.
	Events []events.Type
}

// DecodeSeed decodes an area's part of a dataset into dst strictly: a
// misspelt field in hand-edited data is an error, not a silently lost value.
// A record that does not decode is a *RecordError naming it and the field.
func DecodeSeed(raw json.RawMessage, dst any) error {
	if err := decodeStrictly(raw, dst); err != nil {
		return locateDecodeError(raw, dst, err)
	}
	return nil
}

// Seeder returns the Seed of an area whose part of a dataset decodes
// (strictly, see DecodeSeed) into a D, and which load checks, completes
// and writes. Errors name the part: "seed contacts: contacts[3] (id c1):
// dateAdded must be an RFC 3339 time".
func Seeder[D any](area string, load func(ctx context.Context, deps wiring.Deps, data D) error) func(context.Context, wiring.Deps, json.RawMessage) error {
	return func(ctx context.Context, deps wiring.Deps, raw json.RawMessage) error {
		var data D
		err := DecodeSeed(raw, &data)
		if err == nil {
			err = load(ctx, deps, data)
		}
		if err != nil {
			return fmt.Errorf("seed %s: %w", area, err)
		}
		return nil
	}
}

// OpenSecrets builds the keeper that seals the secrets the areas keep:
// with the local key file SECRETS_LOCAL_KEY_FILE names (created on first
// use), or with the KMS key SECRETS_KEY_ID names (no call is made until a
// secret is sealed). It is nil when no area keeps secrets (none sets
// OpenKMSKey), and an error when one does and neither is set, so that a
// function never starts unable to seal.
func OpenSecrets(ctx context.Context, cfg config.Config, loadAWS wiring.AWSConfigFunc, areas ...Area) (*secrets.Keeper, error) {
	var keeping *Area
	for i := range areas {
		if areas[i].OpenKMSKey != nil {
			keeping = &areas[i]
			break
		}
	}
	if keeping == nil {
		return nil, nil
	}
	return wiring.OpenKeeper(ctx, cfg, loadAWS, keeping.Name, keeping.OpenKMSKey)
}
