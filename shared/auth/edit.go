package auth

import (
	"context"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// AuditEdited is the audit action of a change of a token's name or
// description.
const AuditEdited = "edited"

// Edit asks for a token's new name and description.
type Edit struct {
	AccountID   string
	TokenID     string
	Name        string
	Description string
	By          Actor
}

// Edit gives the account's token a new name and description (checked by
// the rule of a new token's), on both its items, with its audit entry, in
// one transaction. Another account's token is ErrTokenUnknown; a revoked
// token ErrAlreadyRevoked (its name is history, as the audit list tells
// it). The answer is the token as it is now; when nothing differs, nothing
// is written.
func (s *Tokens) Edit(ctx context.Context, e Edit) (Info, error) {
	var v validate.Errors
	checkLabels(&v, e.Name, e.Description)
	if err := v.Err(); err != nil {
		return Info{}, err
	}
	ref, err := s.refInAccount(ctx, e.AccountID, e.TokenID)
	if err != nil {
		return Info{}, err
	}
	info, err := s.Get(ctx, e.AccountID, e.TokenID)
	if err != nil {
		return Info{}, err
	}
	if err := revocable(info); err != nil {
		return info, err
	}
	var changes []string
	if info.Name != e.Name {
		changes = append(changes, "name was "+strconv.Quote(info.Name))
	}
	if info.Description != e.Description {
		changes = append(changes, "description changed")
	}
	if len(changes) == 0 {
		return info, nil
	}
	after := info
	after.Name, after.Description = e.Name, e.Description
	labels := expression.Set(expression.Name("name"), expression.Value(e.Name))
	if e.Description == "" {
		labels = labels.Remove(expression.Name("description"))
	} else {
		labels = labels.Set(expression.Name("description"), expression.Value(e.Description))
	}
	cond := notRevoked()
	now := s.clock.Now()
	tx := s.table.Tx().
		Update(listingKey(ref.AccountID, ref.TokenID), labels, &cond).
		Update(tokenKey(ref.Hash), labels, storage.ItemExists())
	addAudit(tx, now, e.By, AuditEdited, after, strings.Join(changes, "; "))
	if err := tx.Commit(ctx); err != nil {
		return refusal(err, ref, revocable)
	}
	return after, nil
}
