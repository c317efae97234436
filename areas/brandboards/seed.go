package brandboards

import (
	"context"
	"fmt"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the brand-boards part of a demo dataset. At most one board per
// account has "default": true; it becomes the account's default.
type SeedData struct {
	BrandBoards []Board `json:"brandBoards"`
}

// seed writes the boards unflagged, then makes each account's default board
// the default as a creation does (one transaction: the board flagged, the
// flag of the board the pointer named cleared, the pointer moved), so that a
// board created through the API before a reload loses its flag too. What
// the file leaves out is filled in as a creation would: empty lists,
// meta.sourceType blank, createdAt now, updatedAt createdAt.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	store := NewBoards(d.Table)
	now := clock.Timestamp(d.Clock.Now())
	defaults := map[string]Board{}
	var order []string
	err := app.CheckRecords("brandBoards", data.BrandBoards, func(b *Board) (string, string) { return b.LocationID, b.ID }, func(b *Board) error {
		var v validate.Errors
		v.ID("_id", b.ID)
		v.ID("locationId", b.LocationID)
		v.Required("name", &b.Name)
		v.Time("createdAt", &b.CreatedAt, now)
		v.Time("updatedAt", &b.UpdatedAt, b.CreatedAt)
		if b.Default {
			other, taken := defaults[b.LocationID]
			v.Check(!taken, fmt.Sprintf("default: account %s has a default board already (%s)", b.LocationID, other.ID))
		}
		if err := v.Err(); err != nil {
			return err
		}
		if b.Default {
			defaults[b.LocationID] = *b
			order = append(order, b.LocationID)
		}
		if b.Meta.SourceType == "" {
			b.Meta.SourceType = TypeBlank
		}
		b.Logos, b.Colors, b.Fonts, b.Default = orEmpty(b.Logos), orEmpty(b.Colors), orEmpty(b.Fonts), false
		return nil
	})
	if err != nil {
		return err
	}
	if err := store.boards.Seed(ctx, data.BrandBoards, nil); err != nil {
		return err
	}
	for _, account := range order {
		if err := store.seedDefault(ctx, defaults[account]); err != nil {
			return fmt.Errorf("default of %s: %w", account, err)
		}
	}
	return nil
}

// seedDefault makes the stored board b the account's default.
func (s *Boards) seedDefault(ctx context.Context, b Board) error {
	current, err := s.DefaultID(ctx, b.LocationID)
	if err != nil {
		return err
	}
	return s.takeDefault(ctx, b.LocationID, b.ID, b.UpdatedAt, current, func(tx *storage.Tx) *storage.Tx {
		return tx.Update(s.boards.Key(b.LocationID, b.ID), setDefault(true), storage.ItemExists()).
			Else(fmt.Errorf("brand board %s is not stored", b.ID))
	})
}
