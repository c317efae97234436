package store

import (
	"reflect"

	"github.com/bizplatform/api/shared/storage"
)

// Zones and rates are updated by read-modify-write (storage.UpdateVersioned):
// read the item and its version, compute the new item (validating rules that
// depend on the stored values, such as minCondition <= maxCondition), and
// put it on condition that the version is still the one read. If another
// update got in between, the whole cycle runs again on the newer item, so
// concurrent updates are applied one after the other and none is lost.

// revise is one cycle's change of a stored zone or rate: change applied to
// it, stamped updatedAt now, or storage.ErrNoChange when the result equals
// the stored record (no write, and updatedAt stays).
func revise[R any, P interface {
	*R
	normalize()
	stamp(now string)
}](stored P, change func(R) (R, error), now string) error {
	P(stored).normalize()
	next, err := change(*stored)
	if err != nil {
		return err
	}
	P(&next).normalize()
	if reflect.DeepEqual(next, *stored) {
		return storage.ErrNoChange
	}
	P(&next).stamp(now)
	*stored = next
	return nil
}
