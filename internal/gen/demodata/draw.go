package main

import "math/rand/v2"

// draws is a generator's source of random choices: math/rand/v2's PCG with
// a fixed seed. Go keeps a seeded PCG's sequence, and what Rand's methods
// make of it, the same from release to release (math/rand/v2's
// regress_test.go), so the files come out the same on every run.
type draws struct{ r *rand.Rand }

func newDraws(seed uint64) draws { return draws{rand.New(rand.NewPCG(seed, 0))} }

// between is an int in [lo, hi], both ends included.
func (d draws) between(lo, hi int) int { return lo + d.r.IntN(hi-lo+1) }

// chance is true with probability p.
func (d draws) chance(p float64) bool { return d.r.Float64() < p }

// uniform is a float64 in [lo, hi).
//
// float64(x*y) keeps the compiler from fusing the product and the sum into
// one multiply-add (as it may on arm64), which would round once instead of
// twice and change last bits from one machine to another.
func (d draws) uniform(lo, hi float64) float64 { return lo + float64((hi-lo)*d.r.Float64()) }

// pick is one item of list.
func pick[T any](d draws, list []T) T { return list[d.r.IntN(len(list))] }

// pickN is k distinct items of list, in the order drawn.
func pickN[T any](d draws, list []T, k int) []T {
	out := make([]T, k)
	for i, j := range d.r.Perm(len(list))[:k] {
		out[i] = list[j]
	}
	return out
}
