package delivery

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
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
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			assert.Equal(t, c.public, public(netip.MustParseAddr(c.addr)))
		})
	}
}
