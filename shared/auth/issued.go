package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// An issued token is one that a marketplace app's install holds (package
// marketplace): it has only its TOKEN#<sha256> item, with an end (ExpiresAt),
// and no listing or id reference, since the install lists and revokes it.
// It authenticates exactly like any token, its end and revocation included.

// IssuedRef names an issued token for its revocation.
type IssuedRef struct {
	TokenID string
	Hash    string
	// AccountID is the token's account ("" for a company token, which
	// counts against its company: AdmissionID).
	AccountID string
	CompanyID string
}

// NewTokenID draws a new token id.
func NewTokenID() (string, error) {
	random, err := randomBase62(16)
	if err != nil {
		return "", fmt.Errorf("generate token id: %w", err)
	}
	return "tok_" + random, nil
}

// AddIssuedToken adds to tx the item of an issued token, on condition that
// its hash is free (ErrTokenExists otherwise).
func AddIssuedToken(tx *storage.Tx, info Info, hash string) *storage.Tx {
	return tx.Put(tokenItem{Key: tokenKey(hash), Info: info}, storage.ItemAbsent()).Else(ErrTokenExists)
}

// AddIssuedRevocations adds to tx the revocation at now of the issued
// tokens: each token item marked (it must exist), and one record in each
// admission state they count against, so that each is refused on its next
// request on every instance.
func (s *Tokens) AddIssuedRevocations(tx *storage.Tx, now time.Time, tokens []IssuedRef) *storage.Tx {
	byAdmission := map[string][]string{}
	var order []string
	at := clock.Timestamp(now)
	for _, t := range tokens {
		tx.Update(tokenKey(t.Hash), expression.Set(expression.Name(attrRevokedAt), expression.Value(at)), storage.ItemExists())
		id := AdmissionID(t.AccountID, t.CompanyID)
		if _, ok := byAdmission[id]; !ok {
			order = append(order, id)
		}
		byAdmission[id] = append(byAdmission[id], t.TokenID)
	}
	for _, id := range order {
		s.admission.AddRevocation(tx, id, byAdmission[id]...)
	}
	return tx
}

// Table is the table the store keeps tokens in.
func (s *Tokens) Table() *storage.Table { return s.table }

// Audit actions of marketplace apps, in the account's (or company's) audit
// list beside the token changes; the subject is the app.
const (
	AuditAppInstalled   = "installed"
	AuditAppUninstalled = "uninstalled"
	AuditRefreshReused  = "refresh-reused"
	AuditSecretRotated  = "secret-rotated"
	// AuditRedelivered: webhook deliveries were sent again (an app's, or
	// an account's endpoint's).
	AuditRedelivered = "webhook-redelivered"
)

// AddAuditEntry adds to tx an audit entry in partition owner's list (an
// account's, or storage.CompanyPK for a company's) about subject (an app's
// id and name), for changes that are not one token's; a token's change
// writes its entry through here too (addAudit).
func AddAuditEntry(tx *storage.Tx, ownerPK string, at time.Time, by Actor, action, subjectID, subjectName, detail string) *storage.Tx {
	entry := AuditEntry{
		At: clock.Timestamp(at), Action: action, TokenID: subjectID, TokenName: subjectName,
		By: by.orOperator(), Detail: detail,
	}
	return tx.Put(auditItem{Key: auditKey(ownerPK, at, subjectID, action), AuditEntry: entry}, nil)
}

// LastUses is the admission state's record of the last use of each token
// counting against admission id (an account id, or AdmissionID's form).
func (s *Tokens) LastUses(ctx context.Context, admissionID string) (map[string]time.Time, error) {
	return s.admission.LastUses(ctx, admissionID)
}
