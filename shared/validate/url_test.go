package validate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOutsideURLsAreRefusedInEverySpellingOfANonPublicHost(t *testing.T) {
	cases := []struct{ name, url, why string }{
		// Syntax.
		{"plain http", "http://api.example.org/hook", "uses http, not https"},
		{"an upper-case scheme", "HTTPS://api.example.org/hook", "lower case"},
		{"no scheme", "//api.example.org/hook", "must start with https://"},
		{"javascript", "javascript:alert(1)", "must start with https://"},
		{"no host", "https:///hook", "has no host"},
		{"nothing after the scheme", "https://", "has no host"},
		{"a space", "https://api.example.org/a b", `character ' '`},
		{"a space in the host", "https://exa mple.com/", `character ' '`},
		{"a double quote", `https://api.example.org/"onmouseover=x`, "character '\"'"},
		{"an apostrophe", "https://api.example.org/it's", `character '\''`},
		{"a '<'", "https://api.example.org/<script>", "character '<'"},
		{"a '>'", "https://api.example.org/a>b", "character '>'"},
		{"a backslash", `https://api.example.org\@evil.example.net/`, `character '\\'`},
		{"a '{'", "https://api.example.org/{x}", "character '{'"},
		{"a '|'", "https://api.example.org/a|b", "character '|'"},
		{"a '^'", "https://api.example.org/a^b", "character '^'"},
		{"a backquote", "https://api.example.org/a`b", "character '`'"},
		{"a tab", "https://api.example.org/a\tb", `character '\t'`},
		{"a NUL", "https://api.example.org/a\x00b", `character '\x00'`},
		{"a DEL", "https://api.example.org/a\x7fb", `character '\x7f'`},
		{"a non-ASCII letter", "https://api.example.org/café", "non-ASCII"},
		{"a non-ASCII host", "https://bücher.example.org/", "non-ASCII"},
		{"a broken percent-escape", "https://api.example.org/a%zz", "percent-escape"},
		{"a cut percent-escape", "https://api.example.org/a%4", "percent-escape"},
		{"a user name and password", "https://user:pw@api.example.org/", "user name or password"},
		{"a user name hiding the host", "https://api.example.org@127.0.0.1/", "user name or password"},
		{"brackets in the path", "https://api.example.org/a[0]", "'[' or ']' outside the host"},
		{"two fragments", "https://api.example.org/a#b#c", "'#' more than once"},
		{"an empty port", "https://api.example.org:/hook", "without a port number"},
		{"port 0", "https://api.example.org:0/hook", "not a port number"},
		{"a port beyond 65535", "https://api.example.org:65536/hook", "not a port number"},
		{"a port that is not a number", "https://api.example.org:https/hook", "not a port number"},
		// Host names.
		{"a percent-encoded host", "https://%6c%6f%63%61%6c%68%6f%73%74/", "percent-encoded"},
		{"a trailing dot", "https://api.example.org./hook", "end with a dot"},
		{"localhost with a trailing dot", "https://localhost./", "end with a dot"},
		{"an empty label", "https://api..example.org/", "empty label"},
		{"an underscore", "https://api_x.example.org/", "only letters, digits"},
		{"a label ending with '-'", "https://api-.example.org/", "starts or ends with '-'"},
		{"a label of 64 characters", "https://" + strings.Repeat("a", 64) + ".example.org/", "longer than 63"},
		{"a single-label name", "https://nas/", "one label"},
		{"an intranet name", "https://wiki.intranet/", "special-use name (.intranet)"},
		{"localhost", "https://localhost/", "special-use name (.localhost)"},
		{"localhost in capitals", "https://LOCALHOST:8443/", "special-use name (.localhost)"},
		{"a subdomain of localhost", "https://api.localhost/", "special-use name (.localhost)"},
		{"localhost.localdomain", "https://localhost.localdomain/", "special-use name"},
		{"a .internal name", "https://billing.internal/", "special-use name (.internal)"},
		{"the cloud metadata service", "https://metadata.google.internal/computeMetadata/v1/", "special-use name (.internal)"},
		{"a .local name", "https://printer.local/", "special-use name (.local)"},
		{"a .test name", "https://api.test/", "special-use name (.test)"},
		{"a .invalid name", "https://api.invalid/", "special-use name (.invalid)"},
		{"a .example name", "https://api.example/", "special-use name (.example)"},
		{"a home.arpa name", "https://nas.home.arpa/", "special-use name (.arpa)"},
		{"an .onion name", "https://abc.onion/", "special-use name (.onion)"},
		{"a .lan name", "https://router.lan/", "special-use name (.lan)"},
		{"a punycode label that is not IDNA", "https://xn--a.example.org/", "not a valid international domain name"},
		{"a punycode label that decodes to nothing valid", "https://xn--zz.example.org/", "not a valid international domain name"},
		{"a punycode label ending with '-'", "https://xn--bcher-kva-.example.org/", "starts or ends with '-'"},
		// IPv4 in every spelling.
		{"loopback", "https://127.0.0.1/", "a loopback address (127.0.0.0/8)"},
		{"loopback elsewhere in its range", "https://127.53.0.9:8443/", "a loopback address"},
		{"loopback in short form", "https://127.1/", "127.1 is a loopback address"},
		{"loopback in hexadecimal", "https://0x7f000001/", "0x7f000001 is a loopback address"},
		{"loopback in upper-case hexadecimal", "https://0X7F000001/", "a loopback address"},
		{"loopback as one decimal number", "https://2130706433/", "2130706433 is a loopback address"},
		{"loopback in octal", "https://0177.0.0.1/", "0177.0.0.1 is a loopback address"},
		{"loopback in mixed bases", "https://0x7f.0.1/", "a loopback address"},
		{"a public address in hexadecimal", "https://0x08080808/", "spells the IPv4 address 8.8.8.8: write it as 8.8.8.8"},
		{"a public address with a leading zero", "https://08.8.8.8/", "neither a domain name nor an IPv4 address"},
		{"five numbers", "https://1.2.3.4.5/", "neither a domain name nor an IPv4 address"},
		{"a part beyond 255", "https://256.1.1.1/", "neither a domain name nor an IPv4 address"},
		{"a name ending in a number", "https://api.example.123/", "neither a domain name nor an IPv4 address"},
		{"this network", "https://0.0.0.0/", `"this network"`},
		{"0 as one number", "https://0/", `"this network"`},
		{"a 10/8 address", "https://10.1.2.3/", "a private address (10.0.0.0/8)"},
		{"a shared address", "https://100.64.0.1/", "shared (carrier-grade NAT)"},
		{"the metadata service's address", "https://169.254.169.254/latest/meta-data/", "a link-local address"},
		{"the metadata service's address as a number", "https://2852039166/", "a link-local address"},
		{"a 172.16/12 address", "https://172.31.255.255/", "a private address (172.16.0.0/12)"},
		{"an IETF protocol address", "https://192.0.0.8/", "an IETF protocol assignment"},
		{"TEST-NET-1", "https://192.0.2.10/", "a documentation address"},
		{"a 6to4 relay", "https://192.88.99.1/", "6to4 relay"},
		{"a 192.168/16 address", "https://192.168.1.1/", "a private address (192.168.0.0/16)"},
		{"a benchmarking address", "https://198.19.0.1/", "a benchmarking address"},
		{"TEST-NET-2", "https://198.51.100.7/", "a documentation address"},
		{"TEST-NET-3", "https://203.0.113.9/", "a documentation address"},
		{"a multicast address", "https://224.0.0.251/", "a multicast address"},
		{"a reserved address", "https://240.0.0.1/", "a reserved address"},
		{"the limited broadcast address", "https://255.255.255.255/", "the limited broadcast address"},
		// IPv6, and IPv6 carrying IPv4.
		{"IPv6 loopback", "https://[::1]/", "the loopback address"},
		{"IPv6 loopback in full", "https://[0:0:0:0:0:0:0:1]:8443/", "the loopback address"},
		{"the unspecified IPv6 address", "https://[::]/", "the unspecified address"},
		{"IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/", "IPv4-mapped address (::ffff:0.0.0.0/96), which carries the IPv4 address 127.0.0.1"},
		{"IPv4-mapped loopback in hexadecimal groups", "https://[::ffff:7f00:1]/", "carries the IPv4 address 127.0.0.1"},
		{"IPv4-mapped public address", "https://[::ffff:8.8.8.8]/", "IPv4-mapped address"},
		{"IPv4-compatible loopback", "https://[::127.0.0.1]/", "IPv4-compatible address (::/96), which carries the IPv4 address 127.0.0.1"},
		{"NAT64 of the metadata address", "https://[64:ff9b::169.254.169.254]/", "NAT64) address (64:ff9b::/96), which carries the IPv4 address 169.254.169.254"},
		{"local-use NAT64", "https://[64:ff9b:1::a00:1]/", "local-use IPv4/IPv6 translation address"},
		{"6to4 of a private address", "https://[2002:c0a8:101::1]/", "6to4 address (2002::/16), which carries the IPv4 address 192.168.1.1"},
		{"Teredo", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "a Teredo address (2001::/32), which carries the IPv4 address 192.0.2.45"},
		{"an IETF protocol IPv6 address", "https://[2001:2::1]/", "an IETF protocol assignment"},
		{"IPv6 documentation", "https://[2001:db8::1]/", "a documentation address (2001:db8::/32)"},
		{"the newer IPv6 documentation range", "https://[3fff::1]/", "a documentation address (3fff::/20)"},
		{"discard-only", "https://[100::1]/", "a discard-only address"},
		{"unique local", "https://[fd00::1]/", "a unique local (private) address"},
		{"link-local", "https://[fe80::1]/", "a link-local address"},
		{"site-local", "https://[fec0::1]/", "a site-local address"},
		{"multicast", "https://[ff02::1]/", "a multicast address"},
		{"an unassigned IPv6 address", "https://[4000::1]/", "not a global unicast IPv6 address"},
		{"an IPv6 zone", "https://[fe80::1%25eth0]/", "percent-encoded"},
		{"a future IP literal", "https://[v1.fe]/", "not an IPv6 address"},
		{"an IPv4 address in brackets", "https://[127.0.0.1]/", "not an IPv6 address"},
		{"an unclosed bracket", "https://[::1/", "'[' without ']'"},
		{"text after the brackets", "https://[2606:4700::1]x/", "other than a port"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			why := OutsideURLProblem(tc.url)
			assert.NotEmpty(t, why, tc.url)
			assert.Contains(t, why, tc.why, tc.url)
		})
	}
}

func TestOutsideURLsWithPublicHostsAreTaken(t *testing.T) {
	for name, u := range map[string]string{
		"a plain https URL":          "https://api.example.org/hook",
		"a subdomain of example.com": "https://assets.example.com/payments/alpha.png",
		"a host in capitals":         "https://API.Example.ORG/Hook",
		"a port":                     "https://api.example.org:8443/hook",
		"no path":                    "https://api.example.org",
		"a query and a fragment":     "https://api.example.org/a?b=c&d=e%20f#g",
		"every character RFC 3986 allows but one":                             "https://api.example.org/-._~:@!$&()*+,;=/a?b/c?#frag/?",
		"percent-escapes":                                                     "https://api.example.org/caf%C3%A9%27",
		"a public IPv4 address":                                               "https://93.184.215.14/hook",
		"another public IPv4 address":                                         "https://8.8.8.8:443/",
		"an address next to a private range":                                  "https://172.32.0.1/",
		"a public IPv6 address":                                               "https://[2606:4700:4700::1111]/dns-query",
		"a public IPv6 address with a port":                                   "https://[2a00:1450:4001:830::200e]:8443/",
		"an international name in its xn-- form":                              "https://xn--bcher-kva.example.org/",
		"an international top-level name":                                     "https://shop.xn--vermgensberater-ctb/",
		"a name with digits and hyphens":                                      "https://api-2.eu-west-1.example.net/v1",
		"a name that starts like a special one":                               "https://localhost-tools.example.org/",
		"a special name as a label inside a name":                             "https://internal.example.com/local",
		"an example.org subdomain (.example is reserved, example.org is not)": "https://hooks.example.org/x",
	} {
		t.Run(name+" is taken", func(t *testing.T) {
			assert.Empty(t, OutsideURLProblem(u), u)
		})
	}
}

func TestOutsideURLViolationsNameTheFieldAndTheRule(t *testing.T) {
	var v Errors
	assert.False(t, v.OutsideURL("apiDetails.url", "https://127.1/"))
	assert.True(t, v.OutsideURL("imageUrl", "https://cdn.example.com/a.png"))
	e := v.Err()
	assert.EqualError(t, e, "validation: [apiDetails.url must be an https URL with a public host: its host 127.1 is a loopback address (127.0.0.0/8)]")
}

func TestWebhookURLsNameEveryReasonOfTheirFormAndKeepToWebPorts(t *testing.T) {
	cases := []struct {
		name, url string
		local     bool
		why       string // "" when taken
	}{
		{"an https URL on a public host", "https://hooks.example.org/in", false, ""},
		{"port 443 said aloud", "https://hooks.example.org:443/in", false, ""},
		{"port 8443", "https://hooks.example.org:8443/in", false, ""},
		{"a public IPv6 address on 8443", "https://[2606:4700:4700::1111]:8443/in", false, ""},
		{"a query", "https://hooks.example.org/in?source=crm", false, ""},
		{"SSH's port on a public address", "https://8.8.8.8:22/", false, "its port is 22"},
		{"a mail port", "https://hooks.example.org:25/in", false, "its port is 25"},
		{"http's own port", "https://hooks.example.org:80/in", false, "its port is 80"},
		{"a database's port on an IPv6 host", "https://[2606:4700:4700::1111]:5432/", false, "its port is 5432"},
		{"a fragment", "https://hooks.example.org/in#x", false, "must not hold a fragment"},
		{"credentials", "https://user:secret@hooks.example.org/in", false, "must not hold a user name or password"},
		{"credentials and http, both named", "http://user:secret@hooks.example.org/in", false,
			"it must not hold a user name or password, and it uses http, not https"},
		{"credentials, a fragment and http, each named", "http://user:secret@hooks.example.org/in#x", false,
			"it must not hold a user name or password, and it must not hold a fragment (#...), which a receiver never gets, and it uses http, not https"},
		{"a private host", "https://10.0.0.1/in", false, "private"},
		{"local: http on 127.0.0.1, any port", "http://127.0.0.1:8091/hooks", true, ""},
		{"local: http on localhost", "http://localhost:3001/hooks", true, ""},
		{"local: https outside is still checked for its port", "https://8.8.8.8:22/", true, "its port is 22"},
		{"local: credentials on 127.0.0.1 are the reason, not http", "http://user:secret@127.0.0.1:8091/hooks", true, "it must not hold a user name or password"},
		{"local: a fragment on 127.0.0.1 is the reason, not http", "http://127.0.0.1:8091/hooks#top", true, "it must not hold a fragment (#...), which a receiver never gets"},
		{"local: http elsewhere says where http is taken", "http://hooks.example.org/in", true, "it uses http, not https (http only on 127.0.0.1 or localhost, on a local engine)"},
		{"not local: http on 127.0.0.1", "http://127.0.0.1:8091/hooks", false, "it uses http, not https"},
		{"local: a character a URL may not hold on 127.0.0.1", "http://127.0.0.1:8091/a b", true, "character ' '"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			why := WebhookURLProblem(tc.url, tc.local)
			if tc.why == "" {
				assert.Empty(t, why, tc.url)
				return
			}
			assert.Contains(t, why, tc.why, tc.url)
			if strings.HasPrefix(tc.why, "it must not hold a user") && tc.local {
				assert.NotContains(t, why, "http, not https", "http is no reason on a local engine's loopback host")
			}
		})
	}
}

func TestOutsideURLsNameCredentialsBeforeTheScheme(t *testing.T) {
	assert.Equal(t, "it must not hold a user name or password, and it uses http, not https", OutsideURLProblem("http://user:secret@cdn.example.com/a.png"))
	assert.Equal(t, "it uses http, not https", OutsideURLProblem("http://cdn.example.com/a.png#user@x"), "an @ after the host is no credential")
}

func TestWebhookURLViolationsNameTheFieldAndTheRule(t *testing.T) {
	var v Errors
	assert.False(t, v.WebhookURL("url", "https://8.8.8.8:22/", false))
	assert.True(t, v.WebhookURL("url", "https://hooks.example.org/in", false))
	e := v.Err()
	assert.ErrorContains(t, e, "url must be an https URL with a public host on port 443 or 8443: its port is 22")
}
