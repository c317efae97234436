package brandboards

import (
	"context"
	"fmt"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the brand-boards part of a demo dataset. At most one board per
// account has "default": true; it becomes the account's default.
type SeedData struct {
	BrandBoards []Board `json:"brandBoards"`
}

// seed writes the boards, then moves each account's default pointer to its
// default board and settles the flags as a creation would, so boards created
// through the API before a reload lose their flag too.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	var items []any
	defaults := map[string]Board{}
	var order []string
	for _, b := range data.BrandBoards {
		if msg := validate.IDProblem("brand board id", b.ID) + validate.IDProblem("locationId", b.LocationID); msg != "" {
			return fmt.Errorf("%s", msg)
		}
		b.Logos, b.Colors, b.Fonts = orEmpty(b.Logos), orEmpty(b.Colors), orEmpty(b.Fonts)
		if b.Default {
			if other, ok := defaults[b.LocationID]; ok {
				return fmt.Errorf("account %s has two default boards (%s and %s)", b.LocationID, other.ID, b.ID)
			}
			defaults[b.LocationID] = b
			order = append(order, b.LocationID)
		}
		items = append(items, boardItem{Key: boardKey(b.LocationID, b.ID), Board: b, Version: 1})
	}
	if err := d.Table.BatchPut(ctx, items); err != nil {
		return err
	}
	store := NewBoards(d.Table)
	for _, account := range order {
		b := defaults[account]
		version, err := store.movePointer(ctx, account, b.ID, b.UpdatedAt)
		if err != nil {
			return fmt.Errorf("default of %s: %w", account, err)
		}
		if err := store.settleFlags(ctx, account, b.ID, version); err != nil {
			return fmt.Errorf("default of %s: %w", account, err)
		}
	}
	return nil
}
