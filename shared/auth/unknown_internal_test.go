package auth

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/clock"
)

func TestUnknownTokensAreRememberedInBoundedMemory(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC))
	t.Run("past the cap the oldest is forgotten first", func(t *testing.T) {
		u := newUnknownTokens(clk, 100)
		for i := range 250 {
			u.Remember(fmt.Sprintf("hash%d", i), u.Epoch())
		}
		assert.Len(t, u.entries, 100)
		assert.Len(t, u.order, 100)
		assert.False(t, u.Has("hash149"), "among the oldest")
		assert.True(t, u.Has("hash150"))
		assert.True(t, u.Has("hash249"))
	})
	t.Run("an entry remembered again outlives its older copy", func(t *testing.T) {
		u := newUnknownTokens(clk, 3)
		u.Remember("a", u.Epoch())
		u.Remember("a", u.Epoch())
		u.Remember("b", u.Epoch())
		u.Remember("c", u.Epoch()) // evicts the first "a", not the second
		assert.True(t, u.Has("a"))
	})
	t.Run("an entry expires after the TTL", func(t *testing.T) {
		u := newUnknownTokens(clk, 10)
		u.Remember("a", u.Epoch())
		clk.Advance(UnknownTokenTTL - time.Nanosecond)
		assert.True(t, u.Has("a"))
		clk.Advance(time.Nanosecond)
		assert.False(t, u.Has("a"))
		assert.Empty(t, u.entries, "forgotten when found expired")
	})
	t.Run("a read that began before a token was created is not remembered", func(t *testing.T) {
		u := newUnknownTokens(clk, 10)
		epoch := u.Epoch() // a lookup starts, reads "absent"...
		u.Forget("a")      // ...while the token is created
		u.Remember("a", epoch)
		assert.False(t, u.Has("a"))
	})
}
