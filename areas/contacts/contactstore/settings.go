package contactstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// DuplicateSettings are an account's "Allow Duplicate Contact" setting, as
// the public API describes it: whether two contacts may share an e-mail
// address or a phone number, and the fields that identify a contact, in
// the order an upsert (and the duplicate check) looks them up.
//
//   - AllowDuplicates false (the default): no two contacts of the account
//     share a value of a MatchOn field; a create or an update that would
//     make two is refused naming the contact that has it.
//   - AllowDuplicates true: contacts may share them; an upsert sent with
//     createNewIfDuplicateAllowed creates a contact without looking.
//
// Either way an upsert updates the contact the first MatchOn field of the
// request finds (an e-mail held by one contact and a phone by another: the
// e-mail's, when e-mail comes first, and the phone is not moved onto it),
// and otherwise creates one.
type DuplicateSettings struct {
	AllowDuplicates bool `dynamodbav:"allowDuplicates" json:"allowDuplicates"`
	// MatchOn are the identifying fields (FieldEmail, FieldPhone) in
	// priority order: one or both.
	MatchOn   []string `dynamodbav:"matchOn" json:"matchOn"`
	UpdatedAt string   `dynamodbav:"updatedAt,omitempty" json:"updatedAt,omitempty"`
}

// DefaultDuplicateSettings are an account's settings until an admin sets
// them: duplicates refused, e-mail first, then phone.
func DefaultDuplicateSettings() DuplicateSettings {
	return DuplicateSettings{MatchOn: slices.Clone(IdentityFields)}
}

// Check says what is wrong with the settings, or nil.
func (d DuplicateSettings) Check() error {
	if len(d.MatchOn) == 0 || len(d.MatchOn) > len(IdentityFields) {
		return fmt.Errorf("the fields to match on must be one or both of %s", strings.Join(IdentityFields, ", "))
	}
	for i, f := range d.MatchOn {
		if !slices.Contains(IdentityFields, f) {
			return fmt.Errorf("%q is not a field to match on (%s)", f, strings.Join(IdentityFields, ", "))
		}
		if slices.Contains(d.MatchOn[:i], f) {
			return fmt.Errorf("%q is named twice", f)
		}
	}
	return nil
}

// unique are the claims a create or an update must hold alone under d.
func (d DuplicateSettings) unique() []string {
	if d.AllowDuplicates {
		return nil
	}
	return d.MatchOn
}

func settingsKey(accountID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "CONTACTSETTINGS"}
}

type settingsItem struct {
	storage.Key
	DuplicateSettings
}

// DuplicateSettings returns the account's settings (the defaults when none
// were set).
func (s *Contacts) DuplicateSettings(ctx context.Context, accountID string) (DuplicateSettings, error) {
	it, err := storage.Get[settingsItem](ctx, s.table, settingsKey(accountID))
	if err != nil || it == nil {
		return DefaultDuplicateSettings(), err
	}
	return it.DuplicateSettings, nil
}

// SetDuplicateSettings stores the account's settings. Contacts that already
// share a value stay as they are; from then on a write that would give a
// contact another's value is refused when duplicates are not allowed.
func (s *Contacts) SetDuplicateSettings(ctx context.Context, accountID string, d DuplicateSettings, now time.Time) error {
	if err := d.Check(); err != nil {
		return err
	}
	d.UpdatedAt = clock.Timestamp(now)
	return s.table.Put(ctx, settingsItem{Key: settingsKey(accountID), DuplicateSettings: d}, nil)
}

// accountState is what a write reads of the account besides the contact,
// in one call: the duplicate settings, whether the account is indexed
// whole, and the claims of the values it looks up.
type accountState struct {
	settings DuplicateSettings
	ready    bool
	// claims are the contacts holding each value looked up, by field.
	claims map[string][]string
}

// readAccount reads the account's settings, its counter when the write may
// create a contact (counter: whether the account is ready), and the claims
// of values (by field), with one strongly consistent BatchGetItem, and the
// contact at extra when given (nil: none), which it returns.
func (s *Contacts) readAccount(ctx context.Context, accountID string, counter bool, values map[string]string, extra *storage.Key) (accountState, *contactItem, error) {
	keys := []storage.Key{settingsKey(accountID)}
	if counter {
		keys = append(keys, accountCounterKey(accountID))
	}
	for _, f := range IdentityFields {
		if v := values[f]; v != "" {
			keys = append(keys, claimKey(accountID, f, v))
		}
	}
	if extra != nil {
		keys = append(keys, *extra)
	}
	raws, err := storage.BatchGet[rawItem](ctx, s.table, keys)
	if err != nil {
		return accountState{}, nil, err
	}
	st := accountState{settings: DefaultDuplicateSettings(), claims: map[string][]string{}}
	var contact *contactItem
	for _, raw := range raws {
		switch {
		case raw.Key == settingsKey(accountID):
			var it settingsItem
			if err := raw.decode(&it); err != nil {
				return st, nil, err
			}
			st.settings = it.DuplicateSettings
		case raw.Key == accountCounterKey(accountID):
			var it counterItem
			if err := raw.decode(&it); err != nil {
				return st, nil, err
			}
			st.ready = it.Ready
		case strings.HasPrefix(raw.SK, claimPrefix):
			var it claimItem
			if err := raw.decode(&it); err != nil {
				return st, nil, err
			}
			field, _, _ := strings.Cut(strings.TrimPrefix(raw.SK, claimPrefix), "#")
			slices.Sort(it.IDs)
			st.claims[field] = it.IDs
		case extra != nil && raw.Key == *extra:
			contact = &contactItem{}
			if err := raw.decode(contact); err != nil {
				return st, nil, err
			}
		}
	}
	return st, contact, nil
}

// freshAccount reports whether an account not yet ready has no contact
// item: its first contact, written by this version, makes it ready.
func (s *Contacts) freshAccount(ctx context.Context, accountID string) (bool, error) {
	items, _, err := storage.QueryPage[storage.Key](ctx, s.table, storage.Query{Key: storage.PartitionPrefix(storage.AccountPK(accountID), contactKey(accountID, "").SK)}, 1, nil)
	return len(items) == 0, err
}

// rawItem is an item of any kind read in a batch with others: its key, and
// its attributes to decode once its kind is known.
type rawItem struct {
	storage.Key
	attrs map[string]types.AttributeValue
}

// UnmarshalDynamoDBAttributeValue keeps the item's attributes.
func (r *rawItem) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	m, ok := av.(*types.AttributeValueMemberM)
	if !ok {
		return fmt.Errorf("an item is a map, not %T", av)
	}
	r.attrs = m.Value
	return attributevalue.UnmarshalMap(m.Value, &r.Key)
}

func (r rawItem) decode(v any) error { return attributevalue.UnmarshalMap(r.attrs, v) }
