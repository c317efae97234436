package validate

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/idna"
)

// OutsideURLRule is how a field holding an outside URL is described when
// it breaks the rule.
const OutsideURLRule = "must be an https URL with a public host"

// OutsideURL records a violation when v is not an outside URL (see
// OutsideURLProblem): "<field> must be an https URL with a public host: <why>".
func (e *Errors) OutsideURL(field, v string) bool {
	why := OutsideURLProblem(v)
	return e.Check(why == "", field+" "+OutsideURLRule+": "+why)
}

// OutsideURLProblem returns why s cannot be a URL the platform calls or
// shows to others (a custom action's endpoint, an image, a logo), or ""
// when it can. Such a URL
//   - is strictly RFC 3986: printable ASCII only, nothing a URL may not
//     hold unencoded (spaces, quotes, '<', '>', '\', '{', '|', ...; the
//     apostrophe too, though RFC 3986 allows it: it would end a quoted
//     HTML attribute), percent-escapes well-formed, no user name or
//     password;
//   - uses https;
//   - names a public host: a domain name of two labels or more, in ASCII
//     (international names in their xn-- form, which must pass IDNA),
//     without a trailing dot, percent-encoding or a special-use name
//     (specialNames); or an IP address, IPv4 in dotted decimal only, in no
//     special-purpose range (specialRanges), IPv6 embeddings of IPv4
//     included.
//
// Numbers in another spelling (0x7f000001, 2130706433, 0177.0.0.1, 127.1)
// are what some URL parsers and resolvers take as IPv4 addresses; they are
// refused, naming the address they spell. The check reads the URL only:
// a public name may still resolve to a private address, so whatever calls
// the URL must check the address it connects to as well.
//
// When it breaks several rules of its form (credentials and a scheme other
// than https), the answer names each, so that the first fix is the last.
func OutsideURLProblem(s string) string {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		return joinProblems(credentialsProblem(s), schemeProblem(s))
	}
	if why := uriCharsProblem(s); why != "" {
		return why
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
		if why := pathProblem(rest[i:]); why != "" {
			return why
		}
	}
	if strings.Contains(authority, "@") {
		return "it must not hold a user name or password"
	}
	host, port, err := splitHostPort(authority)
	if err != "" {
		return err
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || len(port) > 5 {
			return fmt.Sprintf("its port %s is not a port number (1 to 65535)", clipText(port))
		}
	}
	return hostProblem(host)
}

// schemeProblem is why s does not start with https://; "" when it does.
func schemeProblem(s string) string {
	if strings.HasPrefix(s, "https://") {
		return ""
	}
	if scheme, _, found := strings.Cut(s, "://"); found && isScheme(scheme) {
		if strings.EqualFold(scheme, "https") {
			return "its scheme must be written in lower case (https://)"
		}
		return fmt.Sprintf("it uses %s, not https", clipText(scheme))
	}
	return "it must start with https://"
}

// credentialsProblem refuses a user name or password in the authority of
// s, whatever its scheme (a URL a receiver shows or logs would leak them).
func credentialsProblem(s string) string {
	_, rest, found := strings.Cut(s, "://")
	if !found {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if strings.Contains(rest, "@") {
		return "it must not hold a user name or password"
	}
	return ""
}

// joinProblems names every non-empty problem, in order.
func joinProblems(problems ...string) string {
	var out []string
	for _, p := range problems {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", and ")
}

// WebhookPorts are the ports a webhook URL may name: 443, https's own (the
// port of a URL that names none), and 8443, the usual other port of https
// servers. The deliverer speaks TLS to any host a URL names, so any other
// port would let an account make it knock on a public host's other
// services (mail, SSH, databases) on its behalf; receivers are web
// servers, and a web server on another port is put behind 443 by a proxy.
var WebhookPorts = []string{"443", "8443"}

// WebhookURLRule is how a webhook URL is described when it breaks the rule.
const WebhookURLRule = "must be an https URL with a public host on port 443 or 8443"

// WebhookURL records a violation when v is not a URL the platform delivers
// webhooks to (see WebhookURLProblem): "<field> must be an https URL with a
// public host on port 443 or 8443: <why>".
func (e *Errors) WebhookURL(field, v string, local bool) bool {
	why := WebhookURLProblem(v, local)
	return e.Check(why == "", field+" "+WebhookURLRule+": "+why)
}

// WebhookURLProblem returns why s cannot be a URL the platform delivers
// webhooks to, or "" when it can: an outside URL (OutsideURLProblem)
// without a fragment (a receiver never gets it), on one of WebhookPorts;
// when local (a local engine), an http URL on 127.0.0.1 or localhost, on
// any port, as well. A URL that breaks several rules of its form
// (credentials, a fragment, the scheme) is told each, so that a local
// http URL with a password is refused for the password, not for http.
func WebhookURLProblem(s string, local bool) string {
	form := []string{credentialsProblem(s)}
	if strings.Contains(s, "#") {
		form = append(form, "it must not hold a fragment (#...), which a receiver never gets")
	}
	loopback := local && loopbackHTTP(s)
	if why := schemeProblem(s); why != "" && !loopback {
		if local && strings.HasPrefix(s, "http://") {
			why += " (http only on 127.0.0.1 or localhost, on a local engine)"
		}
		form = append(form, why)
	}
	if why := joinProblems(form...); why != "" {
		return why
	}
	if loopback {
		return uriCharsProblem(s)
	}
	if why := OutsideURLProblem(s); why != "" {
		return why
	}
	authority := strings.TrimPrefix(s, "https://")
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	if _, port, _ := splitHostPort(authority); port != "" && !slices.Contains(WebhookPorts, port) {
		return "its port is " + port
	}
	return ""
}

// loopbackHTTP reports whether s is an http URL on 127.0.0.1 or localhost
// (any port), the receivers of a local engine.
func loopbackHTTP(s string) bool {
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		return false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:] // the credentials are a problem of their own
	}
	host, port, why := splitHostPort(rest)
	if why != "" || (port != "" && !allOf(port, isDigit)) {
		return false
	}
	return host == "127.0.0.1" || strings.EqualFold(host, "localhost")
}

func isScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isAlpha(c) || i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// uriCharsProblem refuses characters RFC 3986 does not allow unencoded
// (and the apostrophe), and malformed percent-escapes.
func uriCharsProblem(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "it holds a '%' that does not start a percent-escape (%XX)"
			}
		case c < 0x21 || c > 0x7e:
			if c >= 0x80 {
				return "it holds a non-ASCII character: percent-encode it (or write an international host name in its xn-- form)"
			}
			return fmt.Sprintf("it holds the character %q, which a URL may not hold unencoded", rune(c))
		case !isURIChar(c):
			return fmt.Sprintf("it holds the character %q, which a URL may not hold unencoded", rune(c))
		}
	}
	return ""
}

// isURIChar reports the characters RFC 3986 allows outside percent-escapes
// (unreserved, gen-delims and sub-delims), less the apostrophe.
func isURIChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("-._~:/?#[]@!$&()*+,;=", c) >= 0
}

// pathProblem checks what follows the authority: brackets belong to the
// host only, and a URL has one fragment.
func pathProblem(s string) string {
	if strings.ContainsAny(s, "[]") {
		return "it holds '[' or ']' outside the host"
	}
	if _, fragment, ok := strings.Cut(s, "#"); ok && strings.Contains(fragment, "#") {
		return "it holds '#' more than once"
	}
	return ""
}

// splitHostPort splits an authority (without user info) into its host and
// port ("" when none); an IPv6 host keeps its brackets.
func splitHostPort(authority string) (host, port, problem string) {
	if strings.HasPrefix(authority, "[") {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return "", "", "its host has '[' without ']'"
		}
		host, rest := authority[:end+1], authority[end+1:]
		if rest == "" {
			return host, "", ""
		}
		if !strings.HasPrefix(rest, ":") {
			return "", "", "its host is followed by something other than a port"
		}
		return host, rest[1:], ""
	}
	if strings.ContainsAny(authority, "[]") {
		return "", "", "it holds '[' or ']' outside an IPv6 host"
	}
	host, port, hasPort := strings.Cut(authority, ":")
	if hasPort && port == "" {
		return "", "", "it has ':' without a port number"
	}
	return host, port, ""
}

func hostProblem(host string) string {
	switch {
	case host == "":
		return "it has no host"
	case strings.Contains(host, "%"):
		return "its host must not be percent-encoded"
	case strings.HasPrefix(host, "["):
		addr, err := netip.ParseAddr(host[1 : len(host)-1])
		if err != nil || !addr.Is6() {
			return fmt.Sprintf("its host %s is not an IPv6 address", clipText(host))
		}
		return addressProblem(host, addr)
	}
	name := strings.ToLower(host)
	if strings.HasSuffix(name, ".") {
		return "its host must not end with a dot"
	}
	labels := strings.Split(name, ".")
	if looksNumeric(labels[len(labels)-1]) {
		return numericHostProblem(host)
	}
	if len(name) > 253 {
		return "its host is longer than 253 characters"
	}
	for _, l := range labels {
		if why := labelProblem(l); why != "" {
			return why
		}
	}
	for _, special := range specialNames {
		if name == special || strings.HasSuffix(name, "."+special) {
			return fmt.Sprintf("its host %s is a special-use name (.%s), not a public one", clipText(host), special)
		}
	}
	if len(labels) < 2 {
		return fmt.Sprintf("its host %s is not a public domain name (it has one label)", clipText(host))
	}
	if strings.Contains(name, "xn--") {
		u, err := idnaProfile().ToUnicode(name)
		if err != nil {
			return fmt.Sprintf("its host %s is not a valid international domain name", clipText(host))
		}
		if a, err := idnaProfile().ToASCII(u); err != nil || a != name {
			return fmt.Sprintf("its host %s is not a valid international domain name", clipText(host))
		}
	}
	return ""
}

// idnaProfile checks xn-- labels as a registry would: IDNA2008 with the
// hyphen, bidi and joiner rules. Built on first use: functions that never
// check a URL neither build nor link it.
var idnaProfile = sync.OnceValue(func() *idna.Profile {
	return idna.New(idna.ValidateForRegistration(), idna.StrictDomainName(true),
		idna.CheckHyphens(true), idna.BidiRule(), idna.CheckJoiners(true))
})

// labelProblem checks one label of a host name: 1 to 63 letters, digits and
// hyphens, not starting or ending with a hyphen (RFC 1123).
func labelProblem(l string) string {
	switch {
	case l == "":
		return "its host has an empty label (two dots in a row, or a leading dot)"
	case len(l) > 63:
		return "its host has a label longer than 63 characters"
	case l[0] == '-' || l[len(l)-1] == '-':
		return "its host has a label that starts or ends with '-'"
	}
	for i := 0; i < len(l); i++ {
		if c := l[i]; !(isAlpha(c) || isDigit(c) || c == '-') {
			return "its host may hold only letters, digits, '-' and '.'"
		}
	}
	return ""
}

// looksNumeric reports whether a host's last label makes URL parsers
// (WHATWG) read the whole host as an IPv4 address: all decimal digits, or
// 0x followed by hexadecimal digits.
func looksNumeric(label string) bool {
	if label == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(label, "0x"); ok {
		return allOf(rest, isHex)
	}
	return allOf(label, isDigit)
}

// numericHostProblem judges a host spelt with numbers: an IPv4 address in
// dotted decimal is judged by its range; any other spelling (hex, octal, a
// single number, fewer than four parts) is refused, naming the address it
// spells.
func numericHostProblem(host string) string {
	addr, ok := parseIPv4Loose(host)
	if !ok {
		return fmt.Sprintf("its host %s is neither a domain name nor an IPv4 address", clipText(host))
	}
	if why := addressProblem(host, addr); why != "" {
		return why
	}
	if addr.String() != host {
		return fmt.Sprintf("its host %s spells the IPv4 address %s: write it as %s", clipText(host), addr, addr)
	}
	return ""
}

// parseIPv4Loose reads an IPv4 address the way inet_aton and the WHATWG
// URL standard do: one to four parts, each decimal, octal (leading 0) or
// hexadecimal (0x), the last part filling the remaining bytes.
func parseIPv4Loose(s string) (netip.Addr, bool) {
	parts := strings.Split(strings.ToLower(s), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// addressProblem refuses an IP address that is not a public unicast
// address: one in a special-purpose range, and, for IPv6, anything outside
// global unicast space (2000::/3). host is how the URL wrote it.
func addressProblem(host string, addr netip.Addr) string {
	for _, r := range specialRanges() {
		if r.prefix.Contains(addr) {
			why := fmt.Sprintf("its host %s is %s (%s)", clipText(host), r.what, r.prefix)
			if v4, ok := embeddedIPv4(addr); ok {
				why += fmt.Sprintf(", which carries the IPv4 address %s", v4)
			}
			return why
		}
	}
	if addr.Is6() && !transitionRanges().globalUnicast6.Contains(addr) {
		return fmt.Sprintf("its host %s is not a global unicast IPv6 address", clipText(host))
	}
	return ""
}

// PublicAddressProblem says why addr is not a public unicast address (the
// special-purpose range it is in, or IPv6 outside global unicast), "" when
// it is one: the deliverer checks every address it connects to with it.
func PublicAddressProblem(addr netip.Addr) string { return addressProblem(addr.String(), addr) }

// SpecialPrefixes are the special-purpose ranges PublicAddressProblem
// refuses, for tests of the places that use it.
func SpecialPrefixes() []netip.Prefix {
	out := make([]netip.Prefix, 0, len(specialRanges()))
	for _, r := range specialRanges() {
		out = append(out, r.prefix)
	}
	return out
}

// embeddedIPv4 returns the IPv4 address an IPv6 address of a transition
// range carries, to say where it really leads.
func embeddedIPv4(addr netip.Addr) (netip.Addr, bool) {
	if !addr.Is6() {
		return netip.Addr{}, false
	}
	b := addr.As16()
	last := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[i+1], b[i+2], b[i+3]}) }
	t := transitionRanges()
	switch {
	case addr.Is4In6(), t.compatible6.Contains(addr), t.translated6.Contains(addr), t.nat64.Contains(addr), t.nat64Local.Contains(addr):
		return last(12), true
	case t.sixToFour.Contains(addr): // 2002:AABB:CCDD::
		return last(2), true
	case t.teredo.Contains(addr): // the client's address, inverted
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), true
	}
	return netip.Addr{}, false
}

// ipv6Ranges are the IPv6 ranges that carry an IPv4 address, and global
// unicast space.
type ipv6Ranges struct {
	compatible6, translated6, nat64, nat64Local, sixToFour, teredo, globalUnicast6 netip.Prefix
}

// transitionRanges, like specialRanges, are parsed on first use, not at
// every cold start.
var transitionRanges = sync.OnceValue(func() ipv6Ranges {
	return ipv6Ranges{
		compatible6:    prefix("::/96"),
		translated6:    prefix("::ffff:0:0:0/96"),
		nat64:          prefix("64:ff9b::/96"),
		nat64Local:     prefix("64:ff9b:1::/48"),
		sixToFour:      prefix("2002::/16"),
		teredo:         prefix("2001::/32"),
		globalUnicast6: prefix("2000::/3"),
	}
})

func prefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// specialRange is a range of addresses that are not public unicast ones.
type specialRange struct {
	prefix netip.Prefix
	what   string
}

// specialRanges are the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (iana.org/assignments/iana-ipv4-special-registry and
// iana-ipv6-special-registry; RFC 6890 and its updates), every entry, plus
// multicast and the deprecated IPv6 site-local and IPv4-compatible ranges.
// Entries the registry marks globally reachable (TURN and PCP anycast,
// AS112, AMT, the NAT64 prefix) are refused too: none is a host a user's
// URL has reason to name, and the NAT64 and transition prefixes would
// reach private IPv4 addresses through a gateway. Parsed on first use.
var specialRanges = sync.OnceValue(func() []specialRange {
	return []specialRange{
		// IPv4
		{prefix("0.0.0.0/8"), `"this network"`},
		{prefix("10.0.0.0/8"), "a private address"},
		{prefix("100.64.0.0/10"), "a shared (carrier-grade NAT) address"},
		{prefix("127.0.0.0/8"), "a loopback address"},
		{prefix("169.254.0.0/16"), "a link-local address"},
		{prefix("172.16.0.0/12"), "a private address"},
		{prefix("192.0.0.0/24"), "an IETF protocol assignment"},
		{prefix("192.0.2.0/24"), "a documentation address"},
		{prefix("192.31.196.0/24"), "an AS112 address"},
		{prefix("192.52.193.0/24"), "an AMT address"},
		{prefix("192.88.99.0/24"), "a 6to4 relay anycast address"},
		{prefix("192.168.0.0/16"), "a private address"},
		{prefix("192.175.48.0/24"), "an AS112 direct delegation address"},
		{prefix("198.18.0.0/15"), "a benchmarking address"},
		{prefix("198.51.100.0/24"), "a documentation address"},
		{prefix("203.0.113.0/24"), "a documentation address"},
		{prefix("224.0.0.0/4"), "a multicast address"},
		{prefix("255.255.255.255/32"), "the limited broadcast address"},
		{prefix("240.0.0.0/4"), "a reserved address"},
		// IPv6
		{prefix("::1/128"), "the loopback address"},
		{prefix("::/128"), "the unspecified address"},
		{prefix("::ffff:0:0/96"), "an IPv4-mapped address"},
		{prefix("::ffff:0:0:0/96"), "an IPv4-translated address"},
		{prefix("::/96"), "an IPv4-compatible address"},
		{prefix("64:ff9b::/96"), "an IPv4/IPv6 translation (NAT64) address"},
		{prefix("64:ff9b:1::/48"), "a local-use IPv4/IPv6 translation address"},
		{prefix("100::/64"), "a discard-only address"},
		{prefix("100:0:0:1::/64"), "a dummy IPv6 prefix address"},
		{prefix("2001::/32"), "a Teredo address"},
		{prefix("2001::/23"), "an IETF protocol assignment"},
		{prefix("2001:db8::/32"), "a documentation address"},
		{prefix("2002::/16"), "a 6to4 address"},
		{prefix("2620:4f:8000::/48"), "an AS112 direct delegation address"},
		{prefix("3fff::/20"), "a documentation address"},
		{prefix("5f00::/16"), "a segment routing (SRv6) SID"},
		{prefix("fc00::/7"), "a unique local (private) address"},
		{prefix("fe80::/10"), "a link-local address"},
		{prefix("fec0::/10"), "a site-local address"},
		{prefix("ff00::/8"), "a multicast address"},
	}
})

// specialNames are the names that never lead to a public host: the IANA
// Special-Use Domain Names registry (localhost, local, test, invalid,
// example, onion, alt, home.arpa and the other .arpa names; RFC 6761 and
// its updates), .internal (reserved for private use; metadata.google.internal
// is a cloud metadata service) and names that are not delegated but used
// inside private networks (localdomain, lan, intranet, and home, corp and
// mail, which ICANN will not delegate). The registry's example.com,
// example.net and example.org are public hosts and stay allowed.
var specialNames = []string{
	"localhost", "localdomain", "local", "internal", "test", "invalid", "example",
	"onion", "alt", "arpa", "lan", "intranet", "home", "corp", "mail",
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func allOf(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// clipText shortens what a client sent before a message repeats it.
func clipText(s string) string {
	if len(s) <= 60 {
		return s
	}
	return s[:57] + "..."
}
