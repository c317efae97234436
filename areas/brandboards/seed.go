package brandboards

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the brand-boards part of a demo dataset. At most one board per
// account has "default": true; it becomes the account's default.
type SeedData struct {
	BrandBoards []Board `json:"brandBoards"`
}

// seed writes the boards unflagged, then makes each account's default board
// the default as a creation does (reading the pointer and the boards, then
// flagging the board, moving the pointer and clearing the other flags), so
// boards created through the API before a reload lose their flag too.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	store := NewBoards(d.Table)
	defaults := map[string]Board{}
	var order []string
	records := make([]boardRecord, len(data.BrandBoards))
	for i, b := range data.BrandBoards {
		if b.Default {
			if other, ok := defaults[b.LocationID]; ok {
				return fmt.Errorf("account %s has two default boards (%s and %s)", b.LocationID, other.ID, b.ID)
			}
			defaults[b.LocationID] = b
			order = append(order, b.LocationID)
		}
		b.Logos, b.Colors, b.Fonts, b.Default = orEmpty(b.Logos), orEmpty(b.Colors), orEmpty(b.Fonts), false
		records[i] = boardRecord{Board: b, Version: 1}
	}
	err := store.boards.Seed(ctx, records, func(r *boardRecord) error {
		return errorOf(validate.IDProblem("brand board id", r.ID) + validate.IDProblem("locationId", r.LocationID))
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
	c, err := s.prepare(ctx, b.LocationID, "", true)
	if err != nil {
		return err
	}
	v := c.version + 1
	flag := expression.Set(expression.Name(attrDefault), expression.Value(true)).
		Set(expression.Name(attrDefaultVersion), expression.Value(v))
	older := expression.Name(attrDefaultVersion).LessThan(expression.Value(v))
	if err := s.table.Update(ctx, s.boards.Key(b.LocationID, b.ID), flag, &older); err != nil {
		return err
	}
	return s.takeDefault(ctx, b.LocationID, b.ID, b.UpdatedAt, c)
}

// errorOf is the error of a rule's message ("": none).
func errorOf(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}
