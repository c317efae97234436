package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/gen"
)

// The committed generated parts of template.yaml are what this generator
// makes: edit the generator (or internal/catalog) and run
// `go generate ./...`, never the lines.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	f, err := template(root, catalog.Functions())
	require.NoError(t, err)
	assert.Empty(t, gen.Drift(root, []gen.File{f}))
}

// a small stack: an area, the deliverer and the hook.
var small = []catalog.Function{
	{Dir: "notes", LogicalID: "NotesFunction", Role: catalog.RoleArea},
	{Dir: "webhooks", LogicalID: "WebhookFunction", Role: catalog.RoleDeliverer},
	{Dir: "probe", LogicalID: "ProbeFunction", Role: catalog.RoleProbe},
	{Dir: "pretraffic", LogicalID: "PreTrafficHookFunction", Role: catalog.RoleHook},
}

func smallTemplate(skip string) string {
	var b strings.Builder
	b.WriteString("Resources:\n")
	for _, f := range small[:2] {
		b.WriteString("  " + f.LogicalID + ":\n    Type: AWS::Serverless::Function\n    Properties:\n")
		if f.LogicalID != skip {
			b.WriteString("      DeploymentPreference: " + marker + "\n        Alarms:\n          - !Ref StaleAlarm\n")
		}
		b.WriteString("      Timeout: 3\n\n")
	}
	b.WriteString("  PreTrafficHookFunction:\n    Type: AWS::Serverless::Function\n    Properties:\n      Environment:\n        Variables:\n")
	b.WriteString("          HOOK_FUNCTIONS: " + marker + "\n            !Sub \"stale\"\n          OTHER: x\n")
	b.WriteString("      Policies:\n        - Statement:\n            - Effect: Allow\n              Action:\n                - lambda:InvokeFunction\n")
	b.WriteString("              Resource: " + marker + "\n                - stale\n\n")
	b.WriteString(regionBegin + "\n  StaleAlarm:\n    Type: AWS::CloudWatch::Alarm\n" + regionEnd + "\n\nOutputs: {}\n")
	return b.String()
}

func TestEachDeployedFunctionGetsItsAlarmsAndTheHookKnowsEveryOne(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "template.yaml"), []byte(smallTemplate("")), 0o644))
	f, err := template(root, small)
	require.NoError(t, err)
	assert.NotContains(t, f.Content, "Stale", "what was made before is made again")
	assert.NotContains(t, f.Content, "stale")
	assert.Contains(t, f.Content, "      DeploymentPreference: "+marker+"\n        Alarms:\n          - !Ref NotesFunctionErrorsAlarm\n          - !Ref NotesFunctionErrorRateAlarm\n      Timeout: 3\n",
		"an area rolls back on its failed invocations and on its 5xx")
	assert.Contains(t, f.Content, "        Alarms:\n          - !Ref WebhookFunctionErrorsAlarm\n      Timeout: 3\n", "the deliverer answers no request: its failed invocations only")
	assert.Contains(t, f.Content, "          HOOK_FUNCTIONS: "+marker+"\n            !Sub \"notes=${NotesFunction},webhooks=${WebhookFunction}\"\n          OTHER: x\n",
		"the hook knows the deployed functions, not the probe or itself")
	assert.Contains(t, f.Content, "              Resource: "+marker+"\n                - !Sub \"${NotesFunction.Arn}:*\"\n                - !Sub \"${WebhookFunction.Arn}:*\"\n\n")
	for _, alarm := range []string{"NotesFunctionErrorsAlarm", "NotesFunctionErrorRateAlarm", "WebhookFunctionErrorsAlarm"} {
		assert.Contains(t, f.Content, "\n  "+alarm+":\n    Type: AWS::CloudWatch::Alarm\n")
	}
	assert.NotContains(t, f.Content, "WebhookFunctionErrorRateAlarm:")
	assert.NotContains(t, f.Content, "ProbeFunctionErrorsAlarm", "the probe is not deployed through CodeDeploy: its alarm is its own metric's")
	assert.Contains(t, f.Content, "  Dashboard:\n    Type: AWS::CloudWatch::Dashboard\n")
	assert.True(t, strings.HasSuffix(f.Content, regionEnd+"\n\nOutputs: {}\n"), "the lines after the region stay")

	again := filepath.Join(root, "template.yaml")
	require.NoError(t, os.WriteFile(again, []byte(f.Content), 0o644))
	f2, err := template(root, small)
	require.NoError(t, err)
	assert.Equal(t, f.Content, f2.Content, "running it again changes nothing")
}

func TestATemplateWithoutAMarkerNamesWhatItLacks(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "template.yaml"), []byte(smallTemplate("WebhookFunction")), 0o644))
	_, err := template(root, small)
	require.ErrorContains(t, err, "WebhookFunction's \"DeploymentPreference: "+marker+"\"")

	noRegion := strings.Replace(smallTemplate(""), regionBegin+"\n", "", 1)
	require.NoError(t, os.WriteFile(filepath.Join(root, "template.yaml"), []byte(noRegion), 0o644))
	_, err = template(root, small)
	require.ErrorContains(t, err, "before its beginning")
}
