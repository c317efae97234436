package medias

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Entry types.
const (
	TypeFile   = "file"
	TypeFolder = "folder"
)

// Entry is a file or folder as stored. Its path is not stored: it is
// derived from the names of its folders when it is served (see tree.go).
type Entry struct {
	ID      string `dynamodbav:"id" json:"_id"`
	AltID   string `dynamodbav:"altId" json:"altId"`
	AltType string `dynamodbav:"altType" json:"altType"`
	Name    string `dynamodbav:"name" json:"name"`
	// ParentID is the folder holding the entry; empty at the root.
	ParentID string `dynamodbav:"parentId,omitempty" json:"parentId,omitempty"`
	// URL is where a file's content is served; folders have none. It names
	// the stored object by id, so a rename leaves it valid.
	URL       string `dynamodbav:"url,omitempty" json:"url,omitempty"`
	Type      string `dynamodbav:"type" json:"type"`
	CreatedAt string `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt" json:"updatedAt"`
}

// Each entry is one item in its account's partition, keyed by type, then
// parent, then id, so that the listings are key ranges read with strongly
// consistent reads (a rename shows in the very next listing):
//
//	MEDIA#<type>#<parent>#         the entries of one type in one folder
//	MEDIA#<type>#                  every entry of one type (fetchAll)
//	MEDIA#folder#                  every folder (to derive paths)
//
// A rename by id needs the item's key, which holds the parent and type: the
// GSI1 entry MEDIAID#<account>#<id> finds it. Type and parent never change
// (no operation moves an entry), so the index's eventual consistency cannot
// point at a stale key; the write itself goes to the base item.
func entryKey(accountID, typ, parentID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: folderPrefix(typ, parentID) + id}
}

// rootParent stands for "no parent" in keys: '~' is not an id character, so
// it can be no folder's id.
const rootParent = "~"

// folderPrefix is the sort-key prefix of the entries of type typ directly in
// folder parentID ("" for the root).
func folderPrefix(typ, parentID string) string {
	if parentID == "" {
		parentID = rootParent
	}
	return typePrefix(typ) + parentID + "#"
}

// typePrefix is the sort-key prefix of every entry of type typ.
func typePrefix(typ string) string { return "MEDIA#" + typ + "#" }

func idIndexPK(accountID, id string) string { return "MEDIAID#" + accountID + "#" + id }

// idIndexSK is constant: an id index partition holds one entry.
const idIndexSK = "MEDIA"

type entryItem struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	Entry
}

func newEntryItem(e Entry) entryItem {
	return entryItem{
		Key:    entryKey(e.AltID, e.Type, e.ParentID, e.ID),
		GSI1PK: idIndexPK(e.AltID, e.ID),
		GSI1SK: idIndexSK,
		Entry:  e,
	}
}

// Library reads and writes the media library.
type Library struct {
	table *storage.Table
}

// NewLibrary returns the library on table.
func NewLibrary(table *storage.Table) *Library { return &Library{table: table} }

// locate returns the key of the account's entry with that id, or false.
func (s *Library) locate(ctx context.Context, accountID, id string) (storage.Key, bool, error) {
	keyOnly := expression.NamesList(expression.Name(storage.AttrPK), expression.Name(storage.AttrSK))
	keys, err := storage.QueryAll[storage.Key](ctx, s.table, storage.Query{
		Index:      storage.IndexGSI1,
		Key:        expression.Key(storage.AttrGSI1PK).Equal(expression.Value(idIndexPK(accountID, id))),
		Projection: &keyOnly,
	})
	// The index is the account's own; the check keeps a lookup inside the
	// caller's partition even if an item were ever indexed wrongly.
	if err != nil || len(keys) == 0 || keys[0].PK != storage.AccountPK(accountID) {
		return storage.Key{}, false, err
	}
	return keys[0], true, nil
}

// Get returns the account's entry with that id, or nil.
func (s *Library) Get(ctx context.Context, accountID, id string) (*Entry, error) {
	key, ok, err := s.locate(ctx, accountID, id)
	if err != nil || !ok {
		return nil, err
	}
	return storage.Get[Entry](ctx, s.table, key)
}

// The area's events: an entry renamed, as it is after the rename.
var (
	FileUpdated = events.Type{
		Name: "MediaFileUpdate", Scope: "medias.readonly", Version: 1,
		Summary: "A media file was renamed (POST /medias/{id}).",
		Fields:  EntryEvent{},
	}
	FolderUpdated = events.Type{
		Name: "MediaFolderUpdate", Scope: "medias.readonly", Version: 1,
		Summary: "A media folder was renamed (POST /medias/{id}).",
		Fields:  EntryEvent{},
	}
)

// EntryEvent is a media event's fields: the entry (its type is the
// event's).
type EntryEvent struct {
	ID        string `json:"_id"`
	AltID     string `json:"altId"`
	AltType   string `json:"altType"`
	Name      string `json:"name"`
	ParentID  string `json:"parentId,omitempty"`
	URL       string `json:"url,omitempty"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

// Rename sets the name of the account's entry and its update time, with the
// entry's MediaFileUpdate or MediaFolderUpdate event, in one transaction; it
// reports false when the account has no entry with that id. A rename to
// the name the entry has writes nothing (and makes no event). Concurrent
// renames are applied one after the other (storage.UpdateVersioned), each
// with its event.
func (s *Library) Rename(ctx context.Context, accountID, id, name string, at time.Time) (bool, error) {
	key, ok, err := s.locate(ctx, accountID, id)
	if err != nil || !ok {
		return false, err
	}
	now := clock.Timestamp(at)
	item, err := storage.UpdateVersioned(ctx, s.table, key, func(it *entryItem) error {
		if it.Name == name {
			return storage.ErrNoChange
		}
		it.Name, it.UpdatedAt = name, now
		return nil
	}, storage.Alongside(func(tx *storage.Tx, changed *entryItem) {
		e := changed.Entry
		typ := FileUpdated
		if e.Type == TypeFolder {
			typ = FolderUpdated
		}
		typ.Add(tx, events.Owner{LocationID: accountID}, EntryEvent{
			ID: e.ID, AltID: e.AltID, AltType: e.AltType, Name: e.Name, ParentID: e.ParentID,
			URL: e.URL, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
		}, at)
	}))
	return item != nil, err
}

// inFolder returns the entries of type typ directly in folder parentID (""
// for the root). Listings read eventually (half the read units): a rename a
// moment ago may not show yet, as in any DynamoDB listing; the rename
// itself is a strongly consistent conditional write.
func (s *Library) inFolder(ctx context.Context, accountID, typ, parentID string) ([]Entry, error) {
	return storage.QueryAll[Entry](ctx, s.table, storage.Query{Key: storage.PartitionPrefix(storage.AccountPK(accountID), folderPrefix(typ, parentID)), Eventual: true})
}

// ofType returns every entry of type typ of the account, read eventually
// (see inFolder).
func (s *Library) ofType(ctx context.Context, accountID, typ string) ([]Entry, error) {
	return storage.QueryAll[Entry](ctx, s.table, storage.Query{Key: storage.PartitionPrefix(storage.AccountPK(accountID), typePrefix(typ)), Eventual: true})
}
