// Package iamcheck finds the AWS API actions (DynamoDB, KMS, SSM, and the
// deploy hook's Lambda and CodeDeploy) each function
// can call: the ground truth that template.yaml's least-privilege policies
// are checked against. It builds the call graph from the function's main
// (rapid type analysis), keeps the reachable functions of this module, and
// reads their call sites: a call of a service client's method (directly,
// or through an interface the client flows into) is that action,
// <service>.NewXxxPaginator stands for action Xxx, and a write added to a
// storage.Tx is that write's action (a transaction has no action of its own).
package iamcheck

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const (
	modulePath = "github.com/bizplatform/api/"
	adapterPkg = "github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	hookPkg    = modulePath + "shared/deployhook"
	probePkg   = modulePath + "probe"
)

// Transactions have no IAM action of their own: DynamoDB checks each write
// in one against the action of that write. So a TransactWriteItems call
// grants nothing by itself; the calls that add writes to a storage.Tx are
// the actions (Tx.Put is dynamodb:PutItem, ...), and TransactGetItems needs
// dynamodb:GetItem.
var (
	txPkg    = modulePath + "shared/storage"
	txWrites = map[string]string{
		"Put": "dynamodb:PutItem", "Update": "dynamodb:UpdateItem",
		"Delete": "dynamodb:DeleteItem", "Check": "dynamodb:ConditionCheckItem",
	}
	vehicles = map[string]string{
		"dynamodb:TransactWriteItems": "",
		"dynamodb:TransactGetItems":   "dynamodb:GetItem",
	}
)

// services are the SDK client packages the functions use, by the prefix
// of their IAM actions.
var services = map[string]string{
	"github.com/aws/aws-sdk-go-v2/service/dynamodb":   "dynamodb",
	"github.com/aws/aws-sdk-go-v2/service/kms":        "kms",
	"github.com/aws/aws-sdk-go-v2/service/ssm":        "ssm",
	"github.com/aws/aws-sdk-go-v2/service/lambda":     "lambda",
	"github.com/aws/aws-sdk-go-v2/service/codedeploy": "codedeploy",
}

// renamed are the operations whose IAM action has another name.
var renamed = map[string]string{"lambda:Invoke": "lambda:InvokeFunction"}

// Actions loads the main packages (import paths) from the module at dir and
// returns, per main package, the sorted AWS actions reachable from its main
// function, as IAM names them ("dynamodb:GetItem", "kms:GenerateDataKey").
func Actions(dir string, mains ...string) (map[string][]string, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, mains...)
	if err != nil {
		return nil, err
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		return nil, fmt.Errorf("%d errors loading packages", n)
	}
	out := map[string][]string{}
	for _, pkg := range pkgs {
		names, err := actionsOf(pkg)
		if err != nil {
			return nil, err
		}
		out[pkg.PkgPath] = names
	}
	return out, nil
}

// actionsOf analyses one main package as its own program: analysing several
// together would merge their type flows through the shared adapter, giving
// every function the union of all functions' actions.
func actionsOf(pkg *packages.Package) ([]string, error) {
	prog, ssaPkgs := ssautil.AllPackages([]*packages.Package{pkg}, ssa.InstantiateGenerics)
	prog.Build()
	main := ssaPkgs[0]
	if main == nil || main.Pkg.Name() != "main" {
		return nil, fmt.Errorf("%s is not a main package", pkg.PkgPath)
	}
	// Variable type analysis follows interface calls and function values by
	// the types that can actually flow there, without RTA's assumption that
	// reflection may call any exported method.
	all := ssautil.AllFunctions(prog)
	graph := vta.CallGraph(all, cha.CallGraph(prog))
	roots := []*ssa.Function{main.Func("main"), main.Func("init")}
	// The Lambda runtime calls the handler passed to lambda.Start by
	// reflection, which no call graph follows: the API Gateway adapter's
	// entry point is a root as well.
	// So is lambdatask.Invoke, through which a task function's handler (not
	// behind the HTTP API: the webhook deliverer) does its work.
	for fn := range all {
		if fn.Pkg != nil && fn.Pkg.Pkg.Path() == adapterPkg && fn.Name() == "ProxyWithContext" {
			roots = append(roots, fn)
		}
		if fn.Pkg != nil && fn.Pkg.Pkg.Path() == modulePath+"shared/lambdatask" && fn.Name() == "Invoke" {
			roots = append(roots, fn)
		}
		// And the deploy hook's handler and the probe's, which they hand
		// to lambda.Start.
		if fn.Pkg != nil && (fn.Pkg.Pkg.Path() == hookPkg || fn.Pkg.Pkg.Path() == probePkg) && fn.Name() == "Handle" {
			roots = append(roots, fn)
		}
	}
	if len(roots) == 2 {
		return nil, fmt.Errorf("%s: no %s.ProxyWithContext in the program", pkg.PkgPath, adapterPkg)
	}
	set := map[string]bool{}
	add := func(name string) {
		if v, ok := vehicles[name]; ok {
			name = v
		}
		if v, ok := renamed[name]; ok {
			name = v
		}
		if name != "" {
			set[name] = true
		}
	}
	for fn := range reachable(graph, roots...) {
		if p := packageOf(fn); p == nil || !strings.HasPrefix(p.Pkg.Path(), modulePath) {
			continue
		}
		for _, name := range callSites(fn) {
			add(name)
		}
		// Calls through an interface (storage.API, kmskey.API) are the
		// clients' methods the type analysis says can flow there.
		if n := graph.Nodes[fn]; n != nil {
			for _, e := range n.Out {
				if name, ok := serviceOperation(e.Callee.Func); ok {
					add(name)
				}
			}
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

func reachable(g *callgraph.Graph, roots ...*ssa.Function) map[*ssa.Function]bool {
	seen := map[*ssa.Function]bool{}
	var stack []*callgraph.Node
	for _, r := range roots {
		if n := g.Nodes[r]; n != nil {
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n.Func] {
			continue
		}
		seen[n.Func] = true
		for _, e := range n.Out {
			stack = append(stack, e.Callee)
		}
	}
	return seen
}

// packageOf is fn's package; for an instance of a generic function, the
// package of its origin.
func packageOf(fn *ssa.Function) *ssa.Package {
	if fn.Pkg == nil && fn.Origin() != nil {
		return fn.Origin().Pkg
	}
	return fn.Pkg
}

// callSites returns the AWS actions fn's own body calls (closures included:
// they are reachable functions of their own).
func callSites(fn *ssa.Function) []string {
	var out []string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil {
				continue
			}
			if name, ok := serviceOperation(callee); ok {
				out = append(out, name)
			}
			if name, ok := txWrite(callee); ok {
				out = append(out, name)
			}
			if callee.Pkg == nil || callee.Signature.Recv() != nil {
				continue
			}
			if prefix, ok := services[callee.Pkg.Pkg.Path()]; ok &&
				strings.HasPrefix(callee.Name(), "New") && strings.HasSuffix(callee.Name(), "Paginator") {
				out = append(out, prefix+":"+strings.TrimSuffix(strings.TrimPrefix(callee.Name(), "New"), "Paginator"))
			}
		}
	}
	return out
}

// txWrite reports whether fn adds a write to a storage.Tx, and that write's
// IAM action.
func txWrite(fn *ssa.Function) (string, bool) {
	recv := fn.Signature.Recv()
	if recv == nil {
		return "", false
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return "", false
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != txPkg || named.Obj().Name() != "Tx" {
		return "", false
	}
	action, ok := txWrites[fn.Name()]
	return action, ok
}

// serviceOperation reports whether fn is an API operation method of a
// service's client, and its IAM action.
func serviceOperation(fn *ssa.Function) (string, bool) {
	recv := fn.Signature.Recv()
	if recv == nil || !fn.Object().Exported() || fn.Name() == "Options" {
		return "", false
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return "", false
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return "", false
	}
	prefix, ok := services[named.Obj().Pkg().Path()]
	if !ok || named.Obj().Name() != "Client" {
		return "", false
	}
	return prefix + ":" + fn.Name(), true
}
