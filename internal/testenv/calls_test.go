package testenv

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRoundTripsCountOverlappingCallsOnce(t *testing.T) {
	t0 := time.Unix(0, 0)
	at := func(op string, from, to int) Call {
		return Call{Op: op, Start: t0.Add(time.Duration(from) * time.Millisecond), End: t0.Add(time.Duration(to) * time.Millisecond)}
	}
	cases := []struct {
		name  string
		calls []Call
		want  int
	}{
		{"no call is no round trip", nil, 0},
		{"one call is one", []Call{at("GetItem", 0, 2)}, 1},
		{"two calls one after the other are two", []Call{at("UpdateItem", 0, 2), at("PutItem", 3, 5)}, 2},
		{"a read overlapping the admission write is one", []Call{at("UpdateItem", 0, 2), at("GetItem", 1, 3)}, 1},
		{"overlapping reads then a write are two", []Call{at("GetItem", 0, 4), at("UpdateItem", 1, 2), at("PutItem", 5, 6)}, 2},
		{"the longest chain counts, in any input order", []Call{at("C", 6, 7), at("A", 0, 1), at("B", 2, 3), at("X", 0, 5)}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, RoundTrips(c.calls)) })
	}
}
