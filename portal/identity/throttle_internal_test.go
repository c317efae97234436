package identity

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// However many sources fail, the owner of an address waits at most
// MaxDelay for their next try: the delay doubles from FirstDelay, then
// stays there.
func TestTheDelayOfAnAddressFailingFromManySourcesDoublesUpToFiveMinutes(t *testing.T) {
	for _, tc := range []struct {
		failures int
		wait     time.Duration
	}{
		{1, 0},
		{SpreadFailureLimit, 0},
		{SpreadFailureLimit + 1, time.Second},
		{SpreadFailureLimit + 2, 2 * time.Second},
		{SpreadFailureLimit + 9, 256 * time.Second},
		{SpreadFailureLimit + 10, 5 * time.Minute},
		{SpreadFailureLimit + 1000, 5 * time.Minute},
	} {
		t.Run(fmt.Sprintf("after %d failures the next sign-in waits %s", tc.failures, tc.wait), func(t *testing.T) {
			assert.Equal(t, tc.wait, spreadDelay(tc.failures))
		})
	}
}
