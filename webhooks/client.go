package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	"github.com/bizplatform/api/shared/validate"
)

// attemptTimeout bounds one POST to a receiver.
const attemptTimeout = 10 * time.Second

// What the deliverer reads of a receiver's answer: its status is all an
// attempt needs, so a receiver that sends header lines or a body without
// end costs it a few kilobytes, not Go's default of 10 MB of headers (16
// attempts at once took a 256 MB function's memory).
const (
	// maxAnswerHeaders bounds the answer's head (status line and headers):
	// past it the attempt fails, read no further.
	maxAnswerHeaders = 16 << 10
	// maxAnswerBody bounds what is read of the body, to let the connection
	// be used again; the rest is not read.
	maxAnswerBody = 4 << 10
	// answerBodyWait bounds the time spent reading it once the head is in.
	answerBodyWait = time.Second
)

// transport is what both clients post with: the bounds on an answer, no
// proxy, no compression asked for (an answer's body is not read anyway).
func transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.MaxResponseHeaderBytes = maxAnswerHeaders
	t.ResponseHeaderTimeout = attemptTimeout
	t.DisableCompression = true
	return t
}

// localClient is the local server's client: the attempt timeout, the
// answer's bounds, and no redirect followed either.
func localClient() *http.Client {
	return &http.Client{Timeout: attemptTimeout, Transport: transport(), CheckRedirect: noRedirect}
}

// errNotPublic: the webhook URL's host resolved to an address that is not
// on the internet.
var errNotPublic = errors.New("the webhook host is not a public address")

// PublicOnlyClient is the deployed deliverer's HTTP client. A webhook URL's
// host was checked to be a public name when the app was registered, but
// what the name resolves to can change: every connection is refused unless
// its address is a public one, so that an app cannot make the deliverer
// post to the function's own runtime (127.0.0.1), the instance metadata
// (169.254.169.254) or a private network. Redirects are not followed (a 3xx
// is a failed attempt), so that one cannot lead there either.
func PublicOnlyClient() *http.Client {
	dialer := &net.Dialer{Timeout: attemptTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || !public(ip) {
			return fmt.Errorf("%w (%s)", errNotPublic, host)
		}
		return nil
	}}
	t := transport()
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialer.DialContext(ctx, network, addr)
	}
	return &http.Client{Timeout: attemptTimeout + time.Second, Transport: t, CheckRedirect: noRedirect}
}

// noRedirect makes a 3xx the attempt's answer (a failed one): a redirect
// would lead the deliverer to a URL no one checked.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// public reports whether ip is an internet address: in none of the IANA
// special-purpose ranges the webhook URL's own check refuses (loopback,
// private, link-local, "this network", benchmarking, reserved, the NAT64,
// 6to4 and IPv4-compatible ranges that lead to IPv4 addresses, site-local
// and the rest: validate.SpecialPrefixes), and for IPv6 in global unicast
// space. An IPv4-mapped address is judged as its IPv4 address.
func public(ip netip.Addr) bool {
	return validate.PublicAddressProblem(ip.Unmap()) == ""
}
