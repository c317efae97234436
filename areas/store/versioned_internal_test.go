package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
)

// These tests interleave a second update between the read and the write of
// a first one, deterministically, to show what the version condition buys.

const (
	testAccount = "acct1"
	testZone    = "aa0300000000000000000001"
)

func newTestStore(t *testing.T) *Shipping {
	table := testenv.NewTable(t)
	deps := wiring.Deps{Table: table, Clock: clock.NewManual(testenv.Start)}
	require.NoError(t, Area.Seed(context.Background(), deps, []byte(`{"shippingZones":[{"_id":"`+testZone+`","altId":"`+testAccount+`","name":"Old","countries":[{"code":"US"}]}]}`)))
	return NewShipping(table)
}

func rename(name string) func(Zone) (Zone, error) {
	return func(z Zone) (Zone, error) { z.Name = name; return z, nil }
}

func TestAnUpdateThatLosesTheRaceIsRetriedOnTheNewerZone(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	calls := 0
	zone, _, err := s.UpdateZone(ctx, testAccount, testZone, testenv.Start, func(z Zone) (Zone, error) {
		calls++
		if calls == 1 {
			// Another request changes the countries after this one read the zone.
			_, _, err := s.UpdateZone(ctx, testAccount, testZone, testenv.Start, func(z Zone) (Zone, error) {
				z.Countries = []Country{{Code: "CA", States: []State{}}}
				return z, nil
			})
			require.NoError(t, err)
		}
		z.Name = "New"
		return z, nil
	})
	require.NoError(t, err)
	assert.Equal(t, 2, calls, "the first write failed its version condition and the change ran again")
	stored, err := s.GetZone(ctx, testAccount, testZone)
	require.NoError(t, err)
	assert.Equal(t, "New", stored.Name)
	assert.Equal(t, []Country{{Code: "CA", States: []State{}}}, stored.Countries, "the other request's change survives")
	assert.Equal(t, *stored, zone)
	v, err := s.Version(ctx, testAccount, testZone)
	require.NoError(t, err)
	assert.Equal(t, int64(2), v)
	written := testenv.Events(t, s.table, events.Owner{LocationID: testAccount})
	assert.Len(t, written, 2, "one event per committed change; the lost attempt made none")
}

func TestAnUpdateThatAlwaysLosesGivesUp(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	calls := 0
	_, _, err := s.UpdateZone(ctx, testAccount, testZone, testenv.Start, func(z Zone) (Zone, error) {
		calls++
		_, _, err := s.UpdateZone(ctx, testAccount, testZone, testenv.Start, rename(z.Name+"!"))
		require.NoError(t, err)
		z.Name = "Never"
		return z, nil
	})
	assert.ErrorIs(t, err, storage.ErrContention)
	assert.Equal(t, storage.MaxUpdateAttempts, calls)
}

func TestAnUpdateOfAMissingZoneIsNotFound(t *testing.T) {
	s := newTestStore(t)
	_, _, err := s.UpdateZone(context.Background(), testAccount, "aa0300000000000000000009", testenv.Start, rename("X"))
	assert.ErrorIs(t, err, ErrNotFound)
}
