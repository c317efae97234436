package contactstore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/storage"
)

// A contact claims its e-mail address and its phone number: one claim item
// per value in the account's partition lists the contacts having it. A
// lookup by e-mail or phone (an upsert, the duplicate check) is then one
// strongly consistent read, and uniqueness (an account that refuses
// duplicates, two upserts of one new address at once) is a condition of
// the transaction that writes the contact: the claim must hold no other
// contact. Every write of a contact changes its claims in the transaction
// that changes its e-mail or phone (index.go), so a claim names exactly
// the contacts having its value.

// The fields a contact is identified by, as the duplicate settings name
// them.
const (
	FieldEmail = "email"
	FieldPhone = "phone"
)

// IdentityFields are the fields a contact claims, in the default order of
// priority.
var IdentityFields = []string{FieldEmail, FieldPhone}

const claimPrefix = "CONTACTBY#"

// claimKey is the claim of value (an EmailKey or PhoneKey) of field.
func claimKey(accountID, field, value string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: claimPrefix + field + "#" + value}
}

// claimItem lists the contacts having one value.
type claimItem struct {
	storage.Key
	IDs []string `dynamodbav:"ids,stringset,omitempty"`
}

// ClaimValues are the values r claims, by field: its e-mail (EmailKey) and
// phone (PhoneKey), where it has them.
func ClaimValues(r Record) map[string]string {
	out := map[string]string{}
	if v := EmailKey(r.Email); v != "" {
		out[FieldEmail] = v
	}
	if v := PhoneKey(r.Phone); v != "" {
		out[FieldPhone] = v
	}
	return out
}

// claimsHeld are the claims the stored contact holds: those of its content,
// once written by this version (before it, contacts made no claims).
func claimsHeld(it *contactItem) map[string]string {
	if it == nil || !(it.Version == indexVersion && !it.Partial || it.Partial && it.ItemsVersion == indexVersion) {
		return nil
	}
	return ClaimValues(it.Record)
}

// claimChange is one claim a write takes (gain) or gives up.
type claimChange struct {
	field, value string
	gain         bool
	// unique: the claim must hold no other contact.
	unique bool
}

// claimChanges are the claim changes that take the stored contact old (nil:
// none) to next (nil: deleted); gains of the fields in unique require that
// no other contact holds the value.
func claimChanges(old, next *contactItem, unique []string) []claimChange {
	have := claimsHeld(old)
	want := map[string]string{}
	if next != nil {
		want = ClaimValues(next.Record)
	}
	var out []claimChange
	for _, f := range IdentityFields {
		if have[f] == want[f] {
			continue
		}
		if have[f] != "" {
			out = append(out, claimChange{field: f, value: have[f]})
		}
		if want[f] != "" {
			out = append(out, claimChange{field: f, value: want[f], gain: true, unique: slices.Contains(unique, f)})
		}
	}
	return out
}

// addClaims adds the claim changes of contact id to tx, and returns them in
// the order added.
func (s *Contacts) addClaims(tx *storage.Tx, accountID, id string, changes []claimChange) []claimChange {
	set := expression.Value(&types.AttributeValueMemberSS{Value: []string{id}})
	for _, c := range changes {
		key := claimKey(accountID, c.field, c.value)
		if !c.gain {
			tx.Update(key, expression.Delete(expression.Name("ids"), set), nil)
			continue
		}
		var cond *expression.ConditionBuilder
		if c.unique {
			// None, or only this contact (a claim a write stopped short of
			// giving up).
			alone := expression.AttributeNotExists(expression.Name("ids")).
				Or(expression.Size(expression.Name("ids")).Equal(expression.Value(1)).And(expression.Contains(expression.Name("ids"), id)))
			cond = &alone
		}
		tx.Update(key, expression.Add(expression.Name("ids"), set), cond)
	}
	return changes
}

// DuplicateError says a value the write would give the contact belongs to
// other contacts, and the write requires it to be the contact's alone.
type DuplicateError struct {
	Field string
	// ContactIDs are the contacts having the value.
	ContactIDs []string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("the %s belongs to contact %s", e.Field, strings.Join(e.ContactIDs, ", "))
}

// duplicateOf is the error of the claim change c whose condition failed,
// the claim as found in item.
func duplicateOf(c claimChange, item map[string]types.AttributeValue) error {
	var found claimItem
	if err := attributevalue.UnmarshalMap(item, &found); err != nil {
		return fmt.Errorf("decode claim %s: %w", c.field, err)
	}
	slices.Sort(found.IDs)
	return &DuplicateError{Field: c.field, ContactIDs: found.IDs}
}
