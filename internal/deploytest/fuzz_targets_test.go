package deploytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/operations"
)

// Every operation has one fuzz target in its area's package, named for it
// and declared with it: func Fuzz<Name>(f *testing.F) calling
// fuzzapi.Operation(f, operations.<Name>, ...), which seeds it from the
// operation's sample and fails when it runs no input (internal/fuzzapi).
func TestEveryOperationHasAFuzzTargetInItsArea(t *testing.T) {
	root := repoRoot(t)
	for _, op := range operations.All {
		dir := filepath.Join(root, "areas", strings.ReplaceAll(op.Area, "-", ""))
		t.Run(op.ID(), func(t *testing.T) {
			targets := fuzzTargets(t, dir)
			assert.Equal(t, []string{"Fuzz" + op.Name}, targets[op.Name],
				"areas/%s has one fuzz target, Fuzz%s, calling fuzzapi.Operation(f, operations.%s, ...) (found %v)",
				filepath.Base(dir), op.Name, op.Name, targets)
		})
	}
}

// fuzzTargets maps the operation each fuzz target of the test files in dir
// declares (the operations.<Name> its fuzzapi.Operation call names) to the
// targets' names.
func fuzzTargets(t *testing.T, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	require.NoError(t, err)
	out := map[string][]string{}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Fuzz") {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if op, ok := declaredOperation(n); ok {
					out[op] = append(out[op], fn.Name.Name)
				}
				return true
			})
		}
	}
	return out
}

// declaredOperation is <Name> when n is fuzzapi.Operation(f, operations.<Name>, ...).
func declaredOperation(n ast.Node) (string, bool) {
	call, ok := n.(*ast.CallExpr)
	if !ok || !isSelector(call.Fun, "fuzzapi", "Operation") || len(call.Args) < 2 {
		return "", false
	}
	sel, ok := call.Args[1].(*ast.SelectorExpr)
	if !ok || !isSelector(sel, "operations", sel.Sel.Name) {
		return "", false
	}
	return sel.Sel.Name, true
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}
