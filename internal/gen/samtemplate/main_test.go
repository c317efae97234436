package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/shared/operations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed route events of template.yaml are what this generator makes: edit the
// generator and run `go generate ./...`, never the files.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	f, err := templateEvents(root)
	require.NoError(t, err)
	assert.Empty(t, gen.Drift(root, []gen.File{f}))
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
	assert.NotContains(t, f.Content, "Stale:", "the events made before are replaced")
	assert.Contains(t, f.Content, "  SurveysFunction:\n    Type: AWS::Serverless::Function\n    Properties:\n      Events: "+templateMarker+"\n"+
		"        ListSurveys:\n          Type: HttpApi\n          Properties:\n            ApiId: !Ref HttpApi\n            Method: GET\n            Path: /surveys/\n"+
		"        ListSurveysNoSlash:\n          Type: HttpApi\n          Properties:\n            ApiId: !Ref HttpApi\n            Method: GET\n            Path: /surveys\n\n")

	require.NoError(t, os.WriteFile(filepath.Join(root, "template.yaml"), []byte(template("CampaignsFunction")), 0o644))
	_, err = templateEvents(root)
	require.ErrorContains(t, err, "CampaignsFunction", "a function without the marker is named")
}
