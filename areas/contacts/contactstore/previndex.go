package contactstore

import (
	"context"
	"fmt"

	"github.com/bizplatform/api/shared/storage"
)

// The previous version of the index (2) kept its items under CSEARCH2#,
// its counters under CSEARCHN2#, the same word keys as this version
// without the field keys, and items that carried the contact's list
// fields only. A contact item it wrote names its items the way this
// version's do (indexRecord), without ItemsVersion. Its items are deleted
// by the contact's first write under this version (Put, an operation,
// Load, Reindex), before the write replaces the contact item that names
// them (so a write stopped in between deletes them again when repeated);
// its counters go when Reindex finds the account ready.

const prevIndexVersion = 2

func prevIndexItemKey(accountID, key, orderKey string) storage.Key {
	return storage.Key{PK: fmt.Sprintf("CSEARCH%d#%s#%s", prevIndexVersion, accountID, key), SK: orderKey}
}

// hasPrevIndex reports whether the contact item names items of the
// previous version.
func (it *contactItem) hasPrevIndex() bool {
	return it != nil && (it.Version == prevIndexVersion && !it.Partial || it.Partial && it.ItemsVersion != indexVersion)
}

// prevIndexItems are the keys of the previous version's items of it.
func prevIndexItems(it *contactItem) []storage.Key {
	if !it.hasPrevIndex() {
		return nil
	}
	var keys []storage.Key
	if it.Partial {
		for _, s := range it.Items {
			r := parseRef(s)
			keys = append(keys, prevIndexItemKey(it.LocationID, r.key, r.orderKey))
		}
		return keys
	}
	for _, k := range termsOf(it.Contact).indexKeys() { // version 2's keys: the word keys
		keys = append(keys, prevIndexItemKey(it.LocationID, k, it.GSI1SK))
	}
	return keys
}

// dropPrevIndex deletes the previous version's items of it.
func (s *Contacts) dropPrevIndex(ctx context.Context, it *contactItem) error {
	return s.table.BatchWrite(ctx, nil, prevIndexItems(it))
}

// dropPrevCounters deletes the previous version's counters and account
// counter of the account.
func (s *Contacts) dropPrevCounters(ctx context.Context, accountID string) error {
	gone := []storage.Key{{PK: fmt.Sprintf("CSEARCHN%d#%s", prevIndexVersion, accountID), SK: "CONTACTS"}}
	for shard := range counterShards {
		items, err := storage.QueryPartition[storage.Key](ctx, s.table, fmt.Sprintf("CSEARCHN%d#%s#%02d", prevIndexVersion, accountID, shard), "")
		if err != nil {
			return err
		}
		gone = append(gone, items...)
	}
	return s.table.BatchWrite(ctx, nil, gone)
}
