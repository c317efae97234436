package deploytest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
)

// cliSpec is what the AWS CLI and the SAM CLI take, as testdata/cli.json
// holds it (extracted from botocore's service models and the SAM CLI's
// click options; its _source says from which commits).
type cliSpec struct {
	Global   []string `json:"global"`
	Together []struct {
		Command string   `json:"command"`
		Options []string `json:"options"`
		Why     string   `json:"why"`
	} `json:"together"`
	NotForLambda []struct {
		Command string `json:"command"`
		Why     string `json:"why"`
	} `json:"notForLambda"`
	Commands map[string]struct {
		Options  []string `json:"options"`
		Required []string `json:"required"`
	} `json:"commands"`
	Sam map[string][]string `json:"sam"`
}

func runbook(t *testing.T) string {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "operations.md"))
	require.NoError(t, err)
	return string(raw)
}

var (
	shFence    = regexp.MustCompile("(?s)```sh\n(.*?)```")
	inlineCode = regexp.MustCompile("`([^`]+)`")
)

// shellCommands are the command lines of the runbook: its sh blocks' and
// its inline code's, continuation lines joined, split at pipes, `;`, `&&`
// and `$(`, comments dropped, each as its words (quotes removed). A
// command named in prose without options (`sam deploy`, `aws deploy`) is
// a mention, not a command line.
func shellCommands(doc string) [][]string {
	type text struct {
		body   string
		inline bool
	}
	var texts []text
	for _, m := range shFence.FindAllStringSubmatch(doc, -1) {
		texts = append(texts, text{m[1], false})
	}
	for _, m := range inlineCode.FindAllStringSubmatch(shFence.ReplaceAllString(doc, ""), -1) {
		texts = append(texts, text{strings.ReplaceAll(m[1], "\n", " "), true}) // a span's line breaks are spaces
	}
	var out [][]string
	for _, tx := range texts {
		for _, line := range strings.Split(strings.ReplaceAll(tx.body, "\\\n", " "), "\n") {
			for _, seg := range splitShell(line) {
				words := shellWords(seg)
				if len(words) == 0 || tx.inline && (words[0] == "aws" || words[0] == "sam") && len(words) <= 2 {
					continue
				}
				out = append(out, words)
			}
		}
	}
	return out
}

// splitShell cuts a line at the places a new command starts, outside
// single quotes, and drops a comment.
func splitShell(line string) []string {
	var segs []string
	var cur strings.Builder
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
			cur.WriteByte(c)
		case c == '#' && (i == 0 || line[i-1] == ' '):
			i = len(line)
		case c == '|' || c == ';' || c == ')' || c == '(' && i > 0 && line[i-1] == '$' || c == '&' && i+1 < len(line) && line[i+1] == '&':
			segs = append(segs, strings.TrimSuffix(cur.String(), "$"))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(segs, cur.String())
}

// shellWords are a segment's words from its command on: after any
// NAME=value assignments, quotes removed.
func shellWords(seg string) []string {
	var words []string
	var cur strings.Builder
	quote, in := byte(0), false
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	for len(words) > 0 && regexp.MustCompile(`^[A-Z_]+=`).MatchString(words[0]) {
		words = words[1:]
	}
	return words
}

// Every aws and sam command of the runbook is one the CLIs take: the
// command exists, each option is one of its parameters (or the AWS CLI's
// global options), the required ones are there, the ones that go together
// go together, nothing meant for EC2 or ECS deployments, and every sam
// deploy that overrides parameters (but the guided first one) names its
// environment: without it, it is the dev stack's.
func TestTheRunbooksCommandsAreOnesTheCLIsTake(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "cli.json"))
	require.NoError(t, err)
	var spec cliSpec
	require.NoError(t, json.Unmarshal(raw, &spec))
	require.NotEmpty(t, spec.Commands)
	seen := map[string]bool{}
	for _, words := range shellCommands(runbook(t)) {
		if words[0] != "aws" && words[0] != "sam" {
			continue
		}
		line := strings.Join(words, " ")
		t.Run(line, func(t *testing.T) {
			var options []string
			for _, w := range words {
				if strings.HasPrefix(w, "--") {
					name, _, _ := strings.Cut(w, "=")
					options = append(options, name)
				}
			}
			if words[0] == "sam" {
				require.GreaterOrEqual(t, len(words), 2)
				known, ok := spec.Sam[words[1]]
				require.True(t, ok, "sam %s is a command the runbook may use", words[1])
				seen["sam "+words[1]] = true
				for _, o := range options {
					assert.Contains(t, known, o, "sam %s takes %s", words[1], o)
				}
				if words[1] == "deploy" && slices.Contains(options, "--parameter-overrides") && !slices.Contains(options, "--guided") {
					assert.Contains(t, options, "--config-env", "a deploy that overrides parameters names its environment: without it, it is the dev stack's")
				}
				return
			}
			require.GreaterOrEqual(t, len(words), 3, line)
			name := words[1] + " " + words[2]
			if words[2] == "wait" {
				require.GreaterOrEqual(t, len(words), 4, line)
				name += " " + words[3]
			}
			cmd, ok := spec.Commands[name]
			require.True(t, ok, "aws %s is a command of the AWS CLI", name)
			seen["aws "+name] = true
			for _, o := range options {
				assert.True(t, slices.Contains(cmd.Options, o) || slices.Contains(spec.Global, o), "aws %s takes %s (it takes %v)", name, o, cmd.Options)
			}
			for _, o := range cmd.Required {
				assert.Contains(t, options, o, "aws %s requires %s", name, o)
			}
			for _, tg := range spec.Together {
				if tg.Command != name {
					continue
				}
				given := 0
				for _, o := range tg.Options {
					if slices.Contains(options, o) {
						given++
					}
				}
				assert.True(t, given == 0 || given == len(tg.Options), "aws %s: %s", name, tg.Why)
			}
			for _, n := range spec.NotForLambda {
				assert.NotEqual(t, n.Command, name, "aws %s: %s", name, n.Why)
			}
		})
	}
	for _, want := range []string{"aws deploy list-deployments", "aws deploy stop-deployment", "aws lambda update-alias", "aws ssm put-parameter",
		"aws dynamodb restore-table-to-point-in-time", "aws dynamodb wait table-exists", "aws logs filter-log-events", "sam deploy", "sam build"} {
		assert.True(t, seen[want], "the check reads the runbook's %s", want)
	}
}

var (
	paramInRow = regexp.MustCompile("`([A-Z][A-Za-z0-9]+)` \\(([0-9][0-9,.]*)\\)")
	mOfN       = regexp.MustCompile(`in (\d+) of (\d+) (minutes|periods of 5 minutes|quarter hours)`)
	inOne      = regexp.MustCompile(`in (1 minute|1 period of 5 minutes)\b`)
)

// The runbook's alarm table says each alarm's defaults as the template has
// them: every parameter it names with its value, each threshold the alarm
// reads among them, and its M of N and period; and it has a row of every
// alarm of the template.
func TestTheRunbooksAlarmTableSaysTheTemplatesDefaults(t *testing.T) {
	_, tpl, res := readTemplate(t)
	rows := map[string]string{}
	for _, line := range strings.Split(runbook(t), "\n") {
		if m := regexp.MustCompile("^\\| `([<>A-Za-z]+)`").FindStringSubmatch(line); m != nil {
			rows[m[1]] = line
		}
	}
	for _, alarm := range resourcesOfType(res, "AWS::CloudWatch::Alarm") {
		row := alarm
		for _, f := range catalog.Functions() {
			if rest, ok := strings.CutPrefix(alarm, f.LogicalID); ok && f.Deployed() {
				row = "<Function>" + rest
			}
		}
		t.Run(alarm, func(t *testing.T) {
			text, ok := rows[row]
			require.True(t, ok, "the runbook's alarm table has a row of %s", row)
			cells := strings.Split(text, "|")
			require.Greater(t, len(cells), 3)
			firesWhen := cells[2]
			named := map[string]bool{}
			for _, m := range paramInRow.FindAllStringSubmatch(firesWhen, -1) {
				def := fmt.Sprint(Path(tpl, "Parameters", m[1], "Default"))
				require.NotEqual(t, "<nil>", def, "%s names %s, a parameter of the template", row, m[1])
				want, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
				require.NoError(t, err)
				got, err := strconv.ParseFloat(def, 64)
				require.NoError(t, err)
				assert.Equal(t, got, want, "%s says %s is %s; the template's default is %s", row, m[1], m[2], def)
				named[m[1]] = true
			}
			props := Path(res[alarm], "Properties")
			threshold := fmt.Sprint(Path(props, "Threshold", "Ref"))
			assert.True(t, named[threshold], "the row of %s names its threshold %s with its default", row, threshold)
			for _, q := range asList(Path(props, "Metrics")) {
				for _, p := range regexp.MustCompile(`\$\{([A-Za-z0-9]+)\}`).FindAllStringSubmatch(fmt.Sprint(Path(q, "Expression", "Fn::Sub")), -1) {
					if Path(tpl, "Parameters", p[1]) != nil {
						assert.True(t, named[p[1]], "the row of %s names %s, which its expression reads", row, p[1])
					}
				}
			}
			n := int(toFloat(Path(props, "EvaluationPeriods")))
			m := n
			if v := Path(props, "DatapointsToAlarm"); v != nil {
				m = int(toFloat(v))
			}
			period := toFloat(Path(props, "Period"))
			for _, q := range asList(Path(props, "Metrics")) {
				if p := Path(q, "MetricStat", "Period"); p != nil {
					period = toFloat(p)
				}
			}
			unit := map[float64]string{60: "minutes", 300: "periods of 5 minutes", 900: "quarter hours"}[period]
			if got := mOfN.FindStringSubmatch(firesWhen); got != nil {
				assert.Equal(t, []string{strconv.Itoa(m), strconv.Itoa(n), unit}, got[1:], "%s: M of N and the period", row)
				return
			}
			got := inOne.FindStringSubmatch(firesWhen)
			require.NotNil(t, got, "the row of %s says in how many periods it fires", row)
			assert.Equal(t, 1, n)
			assert.Equal(t, map[float64]string{60: "1 minute", 300: "1 period of 5 minutes"}[period], got[1])
		})
	}
}

// versionedSettings are the properties of a function that each published
// version keeps as they were: a change to one reaches the alias `live`
// only through a new version.
var versionedSettings = []string{"Environment", "LoggingConfig", "Tracing", "Timeout", "MemorySize"}

// parametersIn adds to into the template's parameters v reads: by !Ref,
// by ${Name} in !Sub, and through the conditions of its !If.
func parametersIn(tpl map[string]any, v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, arg := range x {
			switch k {
			case "Ref":
				if name, ok := arg.(string); ok && Path(tpl, "Parameters", name) != nil {
					into[name] = true
				}
			case "Fn::Sub":
				text := arg
				if l, ok := arg.([]any); ok && len(l) > 0 {
					text = l[0]
				}
				for _, m := range regexp.MustCompile(`\$\{([A-Za-z0-9]+)\}`).FindAllStringSubmatch(fmt.Sprint(text), -1) {
					if Path(tpl, "Parameters", m[1]) != nil {
						into[m[1]] = true
					}
				}
			case "Fn::If", "Condition":
				name := arg
				if l, ok := arg.([]any); ok && len(l) > 0 {
					name = l[0]
				}
				if s, ok := name.(string); ok {
					parametersIn(tpl, Path(tpl, "Conditions", s), into)
				}
			}
			parametersIn(tpl, arg, into)
		}
	case []any:
		for _, e := range x {
			parametersIn(tpl, e, into)
		}
	}
}

// parametersOfVersions are the parameters that reach a versioned setting
// of a function deployed through the alias (the Globals' included).
func parametersOfVersions(t *testing.T) map[string]bool {
	_, tpl, res := readTemplate(t)
	out := map[string]bool{}
	globals := Path(tpl, "Globals", "Function")
	require.NotNil(t, Path(globals, "AutoPublishAlias"), "the functions are deployed through an alias")
	for _, setting := range versionedSettings {
		parametersIn(tpl, Path(globals, setting), out)
	}
	for _, id := range resourcesOfType(res, "AWS::Serverless::Function") {
		if slices.Contains(asList(Path(res[id], "IgnoreGlobals")), any("AutoPublishAlias")) {
			continue // updated in place: a deploy changes what runs
		}
		for _, setting := range versionedSettings {
			parametersIn(tpl, Path(res[id], "Properties", setting), out)
		}
	}
	return out
}

// runbookParagraphs are the runbook's paragraphs (a fenced block with the
// lines around it up to a blank line outside it).
func runbookParagraphs(doc string) []string {
	var out []string
	var cur strings.Builder
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if line == "" && !fenced {
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line + "\n")
	}
	return append(out, cur.String())
}

// SAM publishes a version only when a function's package changes (it
// hashes parameter references, not their values): a deploy of parameters
// that reach a version's settings, without a new build, leaves the alias
// `live` on the old ones and reports success. Every such deploy of the
// runbook comes after a build with a new REVISION, not a cached one.
func TestTheRunbooksParameterChangesPublishNewVersions(t *testing.T) {
	versioned := parametersOfVersions(t)
	for _, name := range []string{"ExistingTableName", "RateLimitDaily", "LogLevel", "SystemLogLevel", "TracingMode", "OperationMetrics", "WebhookKeyParameterName"} {
		assert.True(t, versioned[name], "%s reaches a version's settings", name)
	}
	for _, name := range []string{"DeploymentType", "FunctionErrorsThreshold", "AlarmEmail", "ApiThrottlingRateLimit", "LogRetentionInDays"} {
		assert.False(t, versioned[name], "%s is the stack's own", name)
	}
	checked := 0
	for _, para := range runbookParagraphs(runbook(t)) {
		built := false
		for _, words := range shellCommands(para) {
			if len(words) < 2 || words[0] != "sam" {
				continue
			}
			if words[1] == "build" {
				built = slices.Contains(words, "--no-cached") && strings.Contains(para, "REVISION=$(date -u +%Y%m%dT%H%M%SZ) sam build")
				continue
			}
			at := slices.Index(words, "--parameter-overrides")
			if words[1] != "deploy" || at < 0 || slices.Contains(words, "--guided") {
				continue
			}
			var reaching []string
			for _, w := range words[at+1:] {
				if strings.HasPrefix(w, "--") {
					break
				}
				if name, _, ok := strings.Cut(w, "="); ok && versioned[name] {
					reaching = append(reaching, name)
				}
			}
			if len(reaching) == 0 {
				continue
			}
			checked++
			assert.True(t, built, "%q changes %v, which a version keeps: a build with a new REVISION (not cached) comes first", strings.Join(words, " "), reaching)
		}
	}
	assert.GreaterOrEqual(t, checked, 5, "the check reads the runbook's parameter changes")
}
