package brandboards

import (
	"context"
	"errors"
	"fmt"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the brand-boards part of a demo dataset. At most one board per
// account has "default": true; it becomes the account's default.
type SeedData struct {
	BrandBoards []Board `json:"brandBoards"`
}

// seed writes the boards unflagged, then makes each account's default board
// the default as a creation does (one transaction: the board flagged, the
// flag of the board the pointer named cleared, the pointer moved), so that a
// board created through the API before a reload loses its flag too.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	store := NewBoards(d.Table)
	defaults := map[string]Board{}
	var order []string
	boards := make([]Board, len(data.BrandBoards))
	for i, b := range data.BrandBoards {
		if b.Default {
			if other, ok := defaults[b.LocationID]; ok {
				return fmt.Errorf("account %s has two default boards (%s and %s)", b.LocationID, other.ID, b.ID)
			}
			defaults[b.LocationID] = b
			order = append(order, b.LocationID)
		}
		b.Logos, b.Colors, b.Fonts, b.Default = orEmpty(b.Logos), orEmpty(b.Colors), orEmpty(b.Fonts), false
		boards[i] = b
	}
	err := store.boards.Seed(ctx, boards, func(b *Board) error {
		return errorOf(validate.IDProblem("brand board id", b.ID) + validate.IDProblem("locationId", b.LocationID))
	})
	if err != nil {
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

// errorOf is the error of a rule's message ("": none).
func errorOf(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}
