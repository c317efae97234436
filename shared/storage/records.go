package storage

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// AccountItems are the records of one kind that accounts own. Each record is
// one item in its account's partition (AccountPK) under the sort key
// prefix+id, so a lookup in the caller's partition never finds another
// account's record: it is simply not found. T holds the record's attributes
// (dynamodbav tags); the key is added when a record is written and ignored
// when one is read, so T needs no Key of its own.
//
// The id may itself have parts ("<type>#<id>"): ListUnder then reads the
// records whose id begins with a given part.
type AccountItems[T any] struct {
	table  *Table
	prefix string
	keyOf  func(T) (accountID, id string)
	// read is how Get, List and ListUnder read (strongly consistent unless
	// ReadEventually).
	read []ReadOption
}

// NewAccountItems returns the records of table stored under prefix; keyOf
// names a record's account and id, for writes (nil when the records are
// only read, or written as Keyed items with keys built by the caller).
func NewAccountItems[T any](table *Table, prefix string, keyOf func(T) (accountID, id string)) *AccountItems[T] {
	return &AccountItems[T]{table: table, prefix: prefix, keyOf: keyOf}
}

// ReadEventually returns the same records with every read (Get, List,
// ListUnder) eventually consistent: half the read units. For records no
// operation writes (a seed loads them), where a read a moment behind the
// seed is not wrong; records the API writes and reads back stay strongly
// consistent.
func (s *AccountItems[T]) ReadEventually() *AccountItems[T] {
	c := *s
	c.read = []ReadOption{Eventually}
	return &c
}

// Key is the key of the account's record id: the one place it is built.
func (s *AccountItems[T]) Key(accountID, id string) Key {
	return Key{PK: AccountPK(accountID), SK: s.prefix + id}
}

// KeyOf is the key of record.
func (s *AccountItems[T]) KeyOf(record T) Key { return s.Key(s.keyOf(record)) }

// Get returns the account's record id, or nil when the account has none.
func (s *AccountItems[T]) Get(ctx context.Context, accountID, id string) (*T, error) {
	return Get[T](ctx, s.table, s.Key(accountID, id), s.read...)
}

// List returns every record of the account, ordered by id.
func (s *AccountItems[T]) List(ctx context.Context, accountID string) ([]T, error) {
	return s.ListUnder(ctx, accountID, "")
}

// ListUnder returns the account's records whose id begins with idPrefix,
// ordered by id.
func (s *AccountItems[T]) ListUnder(ctx context.Context, accountID, idPrefix string) ([]T, error) {
	return QueryAll[T](ctx, s.table, Query{Key: PartitionPrefix(AccountPK(accountID), s.prefix+idPrefix), Eventual: readOptionsOf(s.read).eventual})
}

// Update changes the account's record id by optimistic locking (see
// UpdateVersioned); nil, nil when there is no such record.
func (s *AccountItems[T]) Update(ctx context.Context, accountID, id string, change func(*T) error, opts ...UpdateOption) (*T, error) {
	return UpdateVersioned(ctx, s.table, s.Key(accountID, id), change, opts...)
}

// Create writes record unless its key is taken; it reports false, writing
// nothing, when it is. One conditional put: concurrent creates of one key
// store exactly one record.
func (s *AccountItems[T]) Create(ctx context.Context, record T) (bool, error) {
	return Applied(s.table.Put(ctx, s.Item(record), ItemAbsent()))
}

// Delete removes the account's record id; it reports false when there is
// none. One conditional delete: of concurrent deletes exactly one reports
// true.
func (s *AccountItems[T]) Delete(ctx context.Context, accountID, id string) (bool, error) {
	return Applied(s.table.Delete(ctx, s.Key(accountID, id), ItemExists()))
}

// CreateAlong is Create made one transaction with the writes add adds (the
// creation's event): all are written, or none when the key is taken.
func (s *AccountItems[T]) CreateAlong(ctx context.Context, record T, add func(tx *Tx)) (bool, error) {
	tx := s.table.Tx().Put(s.Item(record), ItemAbsent())
	add(tx)
	return Applied(tx.Commit(ctx))
}

// DeleteAlong is Delete made one transaction with the writes add adds for
// the record as it was (the deletion's event). It reads the record first
// and deletes it on condition that it is still the one read (same version),
// so the writes describe exactly what was deleted; it reports false,
// writing nothing, when there is no record or another write came first.
func (s *AccountItems[T]) DeleteAlong(ctx context.Context, accountID, id string, add func(tx *Tx, old T)) (bool, error) {
	return DeleteAlong(ctx, s.table, s.Key(accountID, id), add)
}

// DeleteAlong deletes the item at key, read as a T, in one transaction with
// the writes add adds for it (see AccountItems.DeleteAlong).
func DeleteAlong[T any](ctx context.Context, t *Table, key Key, add func(tx *Tx, old T)) (bool, error) {
	raw, err := t.getItem(ctx, key, true)
	if err != nil || raw == nil {
		return false, err
	}
	read, versioned, err := versionOf(raw)
	if err != nil {
		return false, fmt.Errorf("item %s/%s: %w", key.PK, key.SK, err)
	}
	var old T
	if err := attributevalue.UnmarshalMap(raw, &old); err != nil {
		return false, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
	}
	cond := sameVersion(read, versioned)
	tx := t.Tx().Delete(key, &cond)
	add(tx, old)
	return Applied(tx.Commit(ctx))
}

// Item is record as a table item (for Table.Put and Table.BatchPut).
func (s *AccountItems[T]) Item(record T) Keyed {
	return Keyed{Key: s.KeyOf(record), Record: record}
}

// Seed checks the records and writes them all when every one passes (see
// Load); otherwise it returns the first refusal and writes nothing. It is
// for loading data (the demo dataset).
func (s *AccountItems[T]) Seed(ctx context.Context, records []T, check func(*T) error) error {
	var l Loading
	Load(&l, s, records, check)
	return l.Write(ctx, s.table)
}

// Loading gathers the items of a data load (the demo dataset), of one kind
// or several, so that they are written together once all are checked: a
// load with a refused record writes nothing.
type Loading struct {
	items []any
	err   error
}

// Load checks records with check (which may also fill in defaults; nil when
// they are checked already), refuses
// two records with one key (the second would silently replace the first),
// and adds them to l. The first refusal, naming the record by its sort key,
// is l's error.
func Load[T any](l *Loading, into *AccountItems[T], records []T, check func(*T) error) {
	seen := make(map[Key]bool, len(records))
	for i := range records {
		if l.err != nil {
			return
		}
		var err error
		if check != nil {
			err = check(&records[i])
		}
		account, id := into.keyOf(records[i])
		key := into.Key(account, id)
		switch {
		case err != nil:
			l.err = fmt.Errorf("%s%s: %w", into.prefix, id, err)
		case seen[key]:
			l.err = fmt.Errorf("%s%s appears twice in account %s", into.prefix, id, account)
		default:
			seen[key] = true
			l.items = append(l.items, into.Item(records[i]))
		}
	}
}

// Add adds items that are already checked (structs with their key, or
// Keyed records).
func (l *Loading) Add(items ...any) { l.items = append(l.items, items...) }

// Write writes the items (BatchPut), unless a record was refused: then it
// returns the refusal and writes nothing.
func (l *Loading) Write(ctx context.Context, t *Table) error {
	if l.err != nil {
		return l.err
	}
	return t.BatchPut(ctx, l.items)
}

// Keyed is a record placed at a key: it is written as the record's
// attributes plus the key's, so record types need not embed Key.
type Keyed struct {
	Key    Key
	Record any
}

// MarshalDynamoDBAttributeValue writes the record's attributes and the key.
func (k Keyed) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	av, err := attributevalue.MarshalMap(k.Record)
	if err != nil {
		return nil, fmt.Errorf("encode %s/%s: %w", k.Key.PK, k.Key.SK, err)
	}
	for name, v := range k.Key.AV() {
		av[name] = v
	}
	return &types.AttributeValueMemberM{Value: av}, nil
}
