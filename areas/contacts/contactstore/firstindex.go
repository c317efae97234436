package contactstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/bizplatform/api/shared/storage"
)

// The first version of the index kept its items under CSEARCH#, its
// counters under CSEARCHN# and the account's total in its own item, and
// named each contact's items on the contact item (ixKeys, and ixStale for
// those a write left to delete). The items of a contact are deleted by its
// first write under this version (Put, Delete, Load, Reindex), before the
// write replaces the contact item that names them; the counters and the
// total item go when Reindex finds the account ready.

// firstIndex is the first version's record on a contact item.
type firstIndex struct {
	FirstKeys  []string `dynamodbav:"ixKeys,omitempty"`
	FirstStale []string `dynamodbav:"ixStale,omitempty"`
}

func (f firstIndex) hasFirstIndex() bool { return len(f.FirstKeys)+len(f.FirstStale) > 0 }

// firstIndexItems are the keys of the first version's items of it.
func firstIndexItems(it *contactItem) []storage.Key {
	if it == nil {
		return nil
	}
	var keys []storage.Key
	for _, k := range it.FirstKeys {
		keys = append(keys, firstIndexItemKey(it.LocationID, k, it.GSI1SK))
	}
	for _, r := range it.FirstStale {
		orderKey, k, _ := strings.Cut(r, "|")
		keys = append(keys, firstIndexItemKey(it.LocationID, k, orderKey))
	}
	return keys
}

func firstIndexItemKey(accountID, key, orderKey string) storage.Key {
	return storage.Key{PK: "CSEARCH#" + accountID + "#" + key, SK: orderKey}
}

// dropFirstIndex deletes the first version's items of it, which its
// contact item names until the write that follows replaces it (so a write
// stopped in between deletes them again when repeated).
func (s *Contacts) dropFirstIndex(ctx context.Context, it *contactItem) error {
	return s.table.BatchWrite(ctx, nil, firstIndexItems(it))
}

// dropFirstCounters deletes the first version's counters and total item of
// the account.
func (s *Contacts) dropFirstCounters(ctx context.Context, accountID string) error {
	gone := []storage.Key{{PK: storage.AccountPK(accountID), SK: "CONTACTS_TOTAL"}}
	for shard := range counterShards {
		items, err := storage.QueryPartition[storage.Key](ctx, s.table, fmt.Sprintf("CSEARCHN#%s#%02d", accountID, shard), "")
		if err != nil {
			return err
		}
		gone = append(gone, items...)
	}
	return s.table.BatchWrite(ctx, nil, gone)
}
