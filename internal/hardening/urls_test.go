package hardening

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
)

// publicURLs are outside URLs every outside-URL field takes: public names
// and addresses in their accepted spellings.
var publicURLs = []string{
	"https://api.example.org/hook",
	"https://API.Example.ORG:8443/a/b?c=d&e=f%20g#h",
	"https://93.184.215.14/x",
	"https://[2606:4700:4700::1111]/x",
	"https://xn--bcher-kva.example.org/x",
	"https://172.32.0.1/x",
}

// TestOutsideURLFieldsTakePublicHosts sends each good request with each
// outside URL it holds (the battery's webURL inputs) replaced by each of
// publicURLs: the one check that refuses hosts that are not public takes
// these, on every operation.
func TestOutsideURLFieldsTakePublicHosts(t *testing.T) {
	d := newDemoEnv(t)
	for _, in := range allInputs {
		if in.Body == "" {
			continue
		}
		tree := decodeTree(in.Body)
		walk(tree, func(p jsonPath, v any) {
			if in.Kinds[p.pattern()] != samples.WebURL {
				return
			}
			for i, u := range publicURLs {
				name := fmt.Sprintf("%s %s as %s is taken", in.Op.ID(), p, u)
				body := replaceAt(tree, p, u)
				// A provider's uniqueName may be used once.
				if top := body.(map[string]any); top["uniqueName"] != nil {
					top["uniqueName"] = fmt.Sprintf("%s-%s", top["uniqueName"], strings.Repeat("x", i+1))
				}
				t.Run(name, func(t *testing.T) {
					req := in.request(d.tokenFor(demo.AccountAlpha, in.Op.MarketplaceOnly))
					req.Body = render(body)
					resp := d.Do(t, req)
					assert.Equal(t, in.Status, resp.Status, "body: %s", clipBody(resp.Body))
				})
			}
		})
	}
}
