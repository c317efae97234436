package auth

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// What an audit entry records.
const (
	AuditCreated = "created"
	AuditRotated = "rotated"
	AuditRevoked = "revoked"
)

// AuditEntry is one change to one of an account's tokens: who did what to
// which token, and when. It never holds a token's value.
type AuditEntry struct {
	At        string `dynamodbav:"at"`
	Action    string `dynamodbav:"action"`
	TokenID   string `dynamodbav:"tokenId"`
	TokenName string `dynamodbav:"tokenName"`
	By        Actor  `dynamodbav:"by"`
	// Detail says more where the action needs it (a rotation's successor
	// and what became of the old token).
	Detail string `dynamodbav:"detail,omitempty"`
}

type auditItem struct {
	storage.Key
	AuditEntry
}

// auditKey sorts an owner's entries (an account's or a company's) by time.
// The subject's id and the action tell the entries of one millisecond
// apart, and a random suffix two of the same change (two edits of one
// token at once): an entry is never written over another.
func auditKey(ownerPK string, at time.Time, subjectID, action string) storage.Key {
	return storage.Key{PK: ownerPK, SK: "AUDIT#" + clock.Timestamp(at) + "#" + subjectID + "#" + action + "#" + ids.Hex24()}
}

// addAudit adds to tx the audit entry of the change tx makes to a token:
// written together, the list names every change made and no other.
func addAudit(tx *storage.Tx, at time.Time, by Actor, action string, info Info, detail string) *storage.Tx {
	return AddAuditEntry(tx, storage.AccountPK(info.AccountID), at, by, action, info.TokenID, info.Name, detail)
}

// Audit returns the account's latest audit entries, newest first, at most
// limit of them.
func (s *Tokens) Audit(ctx context.Context, accountID string, limit int32) ([]AuditEntry, error) {
	items, err := storage.QueryLatest[auditItem](ctx, s.table, storage.AccountPK(accountID), "AUDIT#", limit)
	if err != nil {
		return nil, err
	}
	out := make([]AuditEntry, len(items))
	for i, it := range items {
		out[i] = it.AuditEntry
	}
	return out, nil
}
