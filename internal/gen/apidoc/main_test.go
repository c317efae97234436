package main

import (
	"testing"

	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/operations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed generated blocks of docs/api.md are what this generator makes: edit the
// generator and run `go generate ./...`, never the files.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	f, err := apiDoc(root)
	require.NoError(t, err)
	assert.Empty(t, gen.Drift(root, []gen.File{f}))
}

func TestASampleRequestIsACurlCommandTheShellPassesAsItIs(t *testing.T) {
	for _, c := range []struct {
		name string
		req  samples.Request
		want string
	}{
		{"a read is one line with the private token",
			samples.Request{Op: operations.ListCampaigns, Path: "/campaigns/", Query: "locationId=a&status=draft"},
			`curl -s "${h[@]}" "$API/campaigns/?locationId=a&status=draft"`},
		{"a body is quoted whole, its quotes included",
			samples.Request{Op: operations.UpdateMedia, Path: "/medias/f1", Body: `{"name":"Bob's $5"}`},
			"curl -s -X POST \"${h[@]}\" \"${j[@]}\" \\\n  -d '{\"name\":\"Bob'\\''s $5\"}' \\\n  \"$API/medias/f1\""},
		{"what the shell expands in a URL is escaped",
			samples.Request{Op: operations.ListCampaigns, Path: "/campaigns/", Query: "q=$HOME%60x\"y"},
			`curl -s "${h[@]}" "$API/campaigns/?q=\$HOME%60x\"y"`},
		{"a marketplace-only operation carries the marketplace token",
			samples.Request{Op: operations.CreateWhitelabelProvider, Path: "/payments/integrations/provider/whitelabel", Body: `{}`},
			"curl -s -X POST \"${m[@]}\" \"${j[@]}\" \\\n  -d '{}' \\\n  \"$API/payments/integrations/provider/whitelabel\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, curlCommand(c.req))
		})
	}
}

func TestAGeneratedBlockNeedsBothItsMarkers(t *testing.T) {
	begin := "<!-- table: generated from shared/operations and internal/samples by go generate ./... -->\n"
	end := "<!-- end of table -->\n"
	got, err := replaceBlock("a\n"+begin+"old\n"+end+"b\n", "table", "new\n")
	require.NoError(t, err)
	assert.Equal(t, "a\n"+begin+"new\n"+end+"b\n", got, "only the lines between the markers change")

	for name, text := range map[string]string{
		"no markers":          "a\nb\n",
		"no end":              begin + "old\n",
		"the end first":       end + begin,
		"the beginning twice": begin + begin + end,
	} {
		_, err := replaceBlock(text, "table", "new\n")
		assert.Error(t, err, name)
	}
}
