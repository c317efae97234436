package payments

import "github.com/bizplatform/api/shared/storage"

// Store reads and writes the payments area's records: white-label providers
// and coupons, each in its account's partition.
type Store struct {
	table *storage.Table
}

// NewStore returns a Store on table.
func NewStore(table *storage.Table) *Store { return &Store{table: table} }
