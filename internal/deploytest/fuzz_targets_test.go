package deploytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/operations"
)

// Every operation has a fuzz target in its area's package (areas/<pkg>,
// internal/fuzzapi drives it; make fuzz runs each), documented as
// "FuzzX fuzzes <METHOD> <path>." as docs/areas.md's checklist says.
func TestEveryOperationHasAFuzzTargetInItsArea(t *testing.T) {
	root := repoRoot(t)
	for _, op := range operations.All {
		dir := filepath.Join(root, "areas", strings.ReplaceAll(op.Area, "-", ""))
		t.Run(op.ID(), func(t *testing.T) {
			targets := fuzzTargets(t, dir)
			assert.NotEmpty(t, targets["fuzzes "+op.ID()+"."],
				"areas/%s has no fuzz target documented as fuzzing %s (%v)", filepath.Base(dir), op.ID(), targets)
		})
	}
}

// fuzzTargets maps what the fuzz targets of the test files in dir say they
// fuzz (their doc comment, without their name) to their names.
func fuzzTargets(t *testing.T, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	require.NoError(t, err)
	out := map[string][]string{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !strings.HasPrefix(fn.Name.Name, "Fuzz") || fn.Doc == nil {
				continue
			}
			what := strings.TrimSpace(strings.TrimPrefix(fn.Doc.Text(), fn.Name.Name))
			out[what] = append(out[what], fn.Name.Name)
		}
	}
	return out
}
