package main

import "math/bits"

// pyRand is the Mersenne Twister (MT19937) seeded and drawn exactly as
// Python's random.Random draws it. The demo data was first made by Python
// generators with fixed seeds; drawing the same numbers keeps every record
// (and the tests and documentation that name them) as it was.
type pyRand struct {
	mt  [624]uint32
	mti int
}

// newPyRand seeds as random.Random(seed) does for a non-negative int that
// fits in 32 bits: init_by_array with the one-word key [seed].
func newPyRand(seed uint32) *pyRand {
	r := &pyRand{}
	r.initGenrand(19650218)
	const n = len(r.mt)
	key := []uint32{seed}
	i, j := 1, 0
	for k := max(n, len(key)); k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
	return r
}

func (r *pyRand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < len(r.mt); i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = len(r.mt)
}

// uint32 is genrand_uint32.
func (r *pyRand) uint32() uint32 {
	const (
		n, m      = 624, 397
		upperMask = 0x80000000
		lowerMask = 0x7fffffff
	)
	mag01 := [2]uint32{0, 0x9908b0df}
	if r.mti >= n {
		var kk int
		for ; kk < n-m; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+m] ^ (y >> 1) ^ mag01[y&1]
		}
		for ; kk < n-1; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+(m-n)] ^ (y >> 1) ^ mag01[y&1]
		}
		y := (r.mt[n-1] & upperMask) | (r.mt[0] & lowerMask)
		r.mt[n-1] = r.mt[m-1] ^ (y >> 1) ^ mag01[y&1]
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// random is random.random(): 53 random bits in [0, 1).
func (r *pyRand) random() float64 {
	a, b := r.uint32()>>5, r.uint32()>>6
	return (float64(float64(a)*67108864.0) + float64(b)) * (1.0 / 9007199254740992.0)
}

// below is random._randbelow(n) for 0 < n < 2**32: draws of n's bit length
// until one is below n.
func (r *pyRand) below(n int) int {
	k := bits.Len(uint(n))
	for {
		v := int(r.uint32() >> (32 - k))
		if v < n {
			return v
		}
	}
}

// intn is random.randint(lo, hi): both ends included.
func (r *pyRand) intn(lo, hi int) int { return lo + r.below(hi-lo+1) }

// uniform is random.uniform(lo, hi).
//
// Here and wherever a product is added to something, float64(x*y) keeps
// the compiler from fusing the two into one multiply-add (as it may on
// arm64), which would round once instead of twice and change last bits.
func (r *pyRand) uniform(lo, hi float64) float64 { return lo + float64((hi-lo)*r.random()) }

// choose is random.choice(list).
func choose[T any](r *pyRand, list []T) T { return list[r.below(len(list))] }

// sample is random.sample(list, k) for a list of at most 21 items (Python
// then draws from a shrinking pool, as here).
func sample[T any](r *pyRand, list []T, k int) []T {
	if len(list) > 21 {
		panic("sample: Python draws larger populations another way")
	}
	pool := append([]T(nil), list...)
	n := len(pool)
	out := make([]T, k)
	for i := range k {
		j := r.below(n - i)
		out[i] = pool[j]
		pool[j] = pool[n-i-1]
	}
	return out
}
