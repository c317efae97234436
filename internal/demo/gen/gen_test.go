package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/operations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed demo data and sample events are what the generator makes:
// edit the generator and run `go generate ./internal/demo`, never the files.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	files, err := generate(root)
	require.NoError(t, err)
	for _, f := range files {
		t.Run(f.path, func(t *testing.T) {
			committed, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.path)))
			require.NoError(t, err, "run go generate ./internal/demo")
			if diff := firstDifference(string(committed), f.content); diff != "" {
				t.Errorf("%s is not what the generator makes (run go generate ./internal/demo): %s", f.path, diff)
			}
		})
	}
	stale, err := staleEvents(root, files)
	require.NoError(t, err)
	assert.Empty(t, stale, "event files no operation's sample makes: run go generate ./internal/demo")
}

// firstDifference names the first line where committed and made differ, or
// returns "" when they are the same.
func firstDifference(committed, made string) string {
	if committed == made {
		return ""
	}
	a, b := strings.Split(committed, "\n"), strings.Split(made, "\n")
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y || i >= len(a) || i >= len(b) {
			return fmt.Sprintf("line %d is\n\t%q\nand should be\n\t%q", i+1, x, y)
		}
	}
	return "they differ"
}

func TestEveryOperationHasOneSampleEventInItsAreasFolder(t *testing.T) {
	files, err := events()
	require.NoError(t, err)
	byRoute := map[string][]string{}
	for _, f := range files {
		if f.path == "events/env.json" || strings.HasPrefix(f.path, "events/portal/") {
			continue // sam local's environment; the portal's page event
		}
		var ev struct {
			RouteKey string `json:"routeKey"`
		}
		require.NoError(t, json.Unmarshal([]byte(f.content), &ev), f.path)
		byRoute[ev.RouteKey] = append(byRoute[ev.RouteKey], f.path)
	}
	for _, op := range operations.All {
		require.Len(t, byRoute[op.ID()], 1, "%s has one sample event", op.ID())
		assert.True(t, strings.HasPrefix(byRoute[op.ID()][0], "events/"+op.Area+"/"), "%s's event is in its area's folder", op.ID())
	}
	assert.Len(t, byRoute, len(operations.All), "no event names a route the operations table does not have")
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
	begin := "<!-- table: generated from shared/operations and internal/samples by go generate ./internal/demo -->\n"
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

func TestEachAreaFunctionOfTheTemplateGetsTheRouteEventsOfItsOperations(t *testing.T) {
	template := func(unmarked string) string {
		var b strings.Builder
		b.WriteString("Resources:\n")
		for _, area := range operations.Areas {
			fn := catalog.FunctionName(area)
			b.WriteString("  " + fn + ":\n    Type: AWS::Serverless::Function\n    Properties:\n")
			if fn == unmarked {
				b.WriteString("      Events:\n")
			} else {
				b.WriteString("      Events: " + templateMarker + "\n        Stale:\n          Type: HttpApi\n")
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "template.yaml"), []byte(template("")), 0o644))
	f, err := templateEvents(root)
	require.NoError(t, err)
	assert.NotContains(t, f.content, "Stale:", "the events made before are replaced")
	assert.Contains(t, f.content, "  SurveysFunction:\n    Type: AWS::Serverless::Function\n    Properties:\n      Events: "+templateMarker+"\n"+
		"        ListSurveys:\n          Type: HttpApi\n          Properties:\n            ApiId: !Ref HttpApi\n            Method: GET\n            Path: /surveys/\n"+
		"        ListSurveysNoSlash:\n          Type: HttpApi\n          Properties:\n            ApiId: !Ref HttpApi\n            Method: GET\n            Path: /surveys\n\n")

	require.NoError(t, os.WriteFile(filepath.Join(root, "template.yaml"), []byte(template("CampaignsFunction")), 0o644))
	_, err = templateEvents(root)
	require.ErrorContains(t, err, "CampaignsFunction", "a function without the marker is named")
}

func TestOneLineObjectsChangesOnlyTheLayout(t *testing.T) {
	for _, c := range []struct {
		name string
		in   any
		want string
	}{
		{"an object of scalars goes on one line", obj{{"date", "2026-06-01"}, {"clicks", 3}, {"paused", false}, {"note", nil}},
			"{\"date\": \"2026-06-01\", \"clicks\": 3, \"paused\": false, \"note\": null}\n"},
		{"an object holding a list keeps a line per member, its flat items one line each",
			obj{{"id", "c1"}, {"daily", []obj{{{"clicks", 1}}, {{"clicks", 2}}}}},
			"{\n  \"id\": \"c1\",\n  \"daily\": [\n    {\"clicks\": 1},\n    {\"clicks\": 2}\n  ]\n}\n"},
		{"a string that looks like a container leaves its object as it was", obj{{"name", "Brand [exact]"}, {"clicks", 1}},
			"{\n  \"name\": \"Brand [exact]\",\n  \"clicks\": 1\n}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			indented, err := jsonFile(c.in)
			require.NoError(t, err)
			got := oneLineObjects(indented)
			assert.Equal(t, c.want, got)
			assert.JSONEq(t, indented, got)
		})
	}
}
