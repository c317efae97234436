package payments

import "github.com/bizplatform/api/shared/storage"

// Records reads and writes the payments area's records: white-label providers
// and coupons, each in its account's partition.
type Records struct {
	table *storage.Table
}

// NewRecords returns the records on table.
func NewRecords(table *storage.Table) *Records { return &Records{table: table} }
