package webhooks

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/validate"
)

func TestOnlyInternetAddressesArePublic(t *testing.T) {
	cases := []struct {
		addr   string
		public bool
	}{
		{"93.184.215.14", true},
		{"2606:4700:4700::1111", true},
		{"127.0.0.1", false},        // the function's own runtime API
		{"169.254.169.254", false},  // instance metadata
		{"10.0.0.7", false},         // a private network
		{"172.16.3.4", false},       // a private network
		{"192.168.1.1", false},      // a private network
		{"100.64.0.1", false},       // shared address space
		{"0.0.0.0", false},          // unspecified
		{"::1", false},              // loopback
		{"fe80::1", false},          // link-local
		{"fd00::1", false},          // unique local
		{"::ffff:127.0.0.1", false}, // loopback, IPv4-mapped
		{"ff02::1", false},          // multicast
		// Ranges IsGlobalUnicast, IsPrivate and the rest let through.
		{"0.1.2.3", false},                 // "this network" (0.0.0.0/8)
		{"192.0.0.170", false},             // IETF protocol assignments (192.0.0.0/24)
		{"198.19.255.1", false},            // benchmarking (198.18.0.0/15)
		{"250.1.2.3", false},               // reserved (240.0.0.0/4)
		{"64:ff9b::a9fe:a9fe", false},      // NAT64 of 169.254.169.254 (64:ff9b::/96)
		{"2002:a9fe:a9fe::1", false},       // 6to4 of 169.254.169.254 (2002::/16)
		{"::a9fe:a9fe", false},             // IPv4-compatible 169.254.169.254 (::/96)
		{"fec0::1", false},                 // site-local (fec0::/10)
		{"::ffff:93.184.215.14", true},     // an IPv4-mapped public address is that address
		{"2a00:1450:4001:80b::200e", true}, // global unicast IPv6
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			assert.Equal(t, c.public, public(netip.MustParseAddr(c.addr)))
		})
	}
}

func TestEveryAddressOfEverySpecialPurposeRangeIsRefused(t *testing.T) {
	for _, p := range validate.SpecialPrefixes() {
		t.Run(p.String(), func(t *testing.T) {
			first := p.Masked().Addr()
			last := lastOf(p)
			assert.False(t, public(first), "its first address %s", first)
			assert.False(t, public(last), "its last address %s", last)
		})
	}
}

// lastOf is the prefix's last address.
func lastOf(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
