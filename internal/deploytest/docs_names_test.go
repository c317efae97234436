package deploytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// skippedDirs hold no part of the project: history, dependencies, build
// output and local data.
var skippedDirs = map[string]bool{".git": true, "node_modules": true, "bin": true, ".local": true, ".aws-sam": true, "testdata": true}

// The layout block of docs/design.md names folders and files that exist,
// and every top-level folder, and every package folder of shared/, internal/
// and cmd/.
func TestTheLayoutBlockNamesWhatExistsAndEveryFolderOfNote(t *testing.T) {
	root := repoRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash("docs/design.md")))
	require.NoError(t, err)
	named := layoutNames(t, string(raw))
	require.NotEmpty(t, named)

	covered := map[string]bool{}
	for _, name := range named {
		pattern := filepath.Join(root, filepath.FromSlash(placeholder.ReplaceAllString(strings.TrimSuffix(name, "/"), "*")))
		matches, err := filepath.Glob(pattern)
		require.NoError(t, err)
		assert.NotEmpty(t, matches, "the layout names %s, which the repository lacks", name)
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			require.NoError(t, err)
			parts := strings.Split(filepath.ToSlash(rel), "/")
			covered[parts[0]] = true
			if len(parts) > 1 {
				covered[parts[0]+"/"+parts[1]] = true
			}
		}
	}
	for _, dir := range foldersOfNote(t, root) {
		assert.True(t, covered[dir], "the layout block omits %s/", dir)
	}
}

var placeholder = regexp.MustCompile(`<[^>]+>`)

// layoutNames are the paths the layout block's lines begin with: "a/b, c"
// names a/b and a/c; "a/{b,c}" names a/b and a/c; <name> stands for any
// one folder or file.
func layoutNames(t *testing.T, design string) []string {
	t.Helper()
	_, section, ok := strings.Cut(design, "\n## Layout\n")
	require.True(t, ok, "docs/design.md has a Layout section")
	_, block, ok := strings.Cut(section, "```\n")
	require.True(t, ok, "the Layout section has a code block")
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok)
	var names []string
	for _, line := range strings.Split(block, "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue // a description's next line
		}
		column, _, _ := strings.Cut(line, "  ")
		items := strings.Split(column, ", ")
		parent := ""
		if i := strings.LastIndex(strings.TrimSuffix(items[0], "/"), "/"); i >= 0 {
			parent = items[0][:i+1]
		}
		for i, item := range items {
			if i > 0 && !strings.Contains(item, "/") {
				item = parent + item
			}
			names = append(names, expandBraces(item)...)
		}
	}
	return names
}

// expandBraces expands one {a,b,c} in name.
func expandBraces(name string) []string {
	open, close := strings.Index(name, "{"), strings.Index(name, "}")
	if open < 0 || close < open {
		return []string{name}
	}
	var out []string
	for _, alt := range strings.Split(name[open+1:close], ",") {
		out = append(out, name[:open]+alt+name[close+1:])
	}
	return out
}

// foldersOfNote are the repository's top-level folders and the package
// folders right under shared/, internal/ and cmd/.
func foldersOfNote(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() && !skippedDirs[e.Name()] {
			out = append(out, e.Name())
		}
	}
	for _, parent := range []string{"shared", "internal", "cmd"} {
		entries, err := os.ReadDir(filepath.Join(root, parent))
		require.NoError(t, err)
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, parent+"/"+e.Name())
			}
		}
	}
	return out
}

// What the docs name in backticks exists: a path of the repository
// (`shared/storage/tx.go`, `internal/gen/demodata/`), a Go name of one of its
// packages (`storage.UpdateVersioned`, `storage.Get[T](...)`,
// `auth.Session.Confirm`), or a name in a package's folder
// (`shared/auth.Tokens`). Not checked: spans with placeholders (<area>, *,
// {a,b}), code blocks, names of packages the repository does not hold (the
// standard library, the SDK) or shares its name with (the SDK's config),
// and docs/performance.md, the log of measurements of the code as it was
// when measured.
func TestTheFilesAndNamesTheDocsGiveInBackticksExist(t *testing.T) {
	root := repoRoot(t)
	byName, byDir := goPackages(t, root)
	docs := []string{"README.md"}
	for _, rel := range repoFiles(t, filepath.Join(root, "docs"), ".md") {
		if rel != "performance.md" {
			docs = append(docs, "docs/"+rel)
		}
	}
	checked := 0
	for _, doc := range docs {
		raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		require.NoError(t, err)
		for _, m := range backticked.FindAllStringSubmatch(withoutCodeBlocks(string(raw)), -1) {
			span := m[1]
			switch {
			case nameInFolder.MatchString(span):
				g := nameInFolder.FindStringSubmatch(span)
				checked++
				assert.True(t, byDir[g[1]].has(g[2], ""), "%s names %s, which the package in %s lacks", doc, span, g[1])
			case repoPath.MatchString(span):
				checked++
				_, err := os.Stat(filepath.Join(root, filepath.FromSlash(span)))
				assert.NoError(t, err, "%s names %s, which the repository lacks", doc, span)
			case goName.MatchString(span):
				g := goName.FindStringSubmatch(span)
				pkg, ok := byName[g[1]]
				if !ok {
					continue
				}
				checked++
				assert.True(t, pkg.has(g[2], g[3]), "%s names %s, which package %s lacks", doc, strings.TrimRight(g[0], "[({"), g[1])
			}
		}
	}
	assert.Greater(t, checked, 100, "the docs name files and functions")
}

var (
	backticked = regexp.MustCompile("`([^`\n]+)`")
	// repoPath is a path under a top-level folder, without placeholders.
	repoPath = regexp.MustCompile(`^(?:\.ci|api|areas|cmd|docs|events|functions|internal|portal|shared|tools)/[A-Za-z0-9_./-]*$`)
	// nameInFolder is a package's folder and one of its names.
	nameInFolder = regexp.MustCompile(`^((?:api|areas|cmd|internal|portal|shared|tools)(?:/[A-Za-z0-9_-]+)*)\.([A-Z][A-Za-z0-9_]*)$`)
	// goName is pkg.Name or pkg.Type.Member, maybe followed by type
	// arguments, arguments or a composite literal.
	goName = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Z][A-Za-z0-9_]*))?(?:$|[\[({])`)
	// fence opens or closes a code block, whose text is an example.
	fence = regexp.MustCompile("(?m)^ *```")
)

// withoutCodeBlocks drops the fenced code blocks of a Markdown text.
func withoutCodeBlocks(text string) string {
	parts := fence.Split(text, -1)
	var b strings.Builder
	for i := 0; i < len(parts); i += 2 {
		b.WriteString(parts[i])
	}
	return b.String()
}

// goPackage is what a package's non-test files declare at top level, and
// the methods and fields of its types.
type goPackage struct {
	names   map[string]bool
	members map[string]map[string]bool // type -> its methods and fields
}

func (p goPackage) has(name, member string) bool {
	if member == "" {
		return p.names[name]
	}
	return p.members[name][member]
}

// goPackages reads the repository's packages by name (packages of one name
// in several folders merge; a name that an imported package outside the
// repository also has is left out) and by folder (relative to root).
func goPackages(t *testing.T, root string) (byName, byDir map[string]goPackage) {
	t.Helper()
	byName, byDir = map[string]goPackage{}, map[string]goPackage{}
	pkgOf := func(pkgs map[string]goPackage, key string) goPackage {
		p, ok := pkgs[key]
		if !ok {
			p = goPackage{names: map[string]bool{}, members: map[string]map[string]bool{}}
			pkgs[key] = p
		}
		return p
	}
	outside := map[string]bool{} // names of imported packages outside the repository
	const module = "github.com/bizplatform/api/"
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && skippedDirs[d.Name()] {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); !strings.HasPrefix(path, module) {
				outside[path[strings.LastIndex(path, "/")+1:]] = true
			}
		}
		if f.Name.Name == "main" {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkgs := []goPackage{pkgOf(byName, f.Name.Name), pkgOf(byDir, filepath.ToSlash(rel))}
		name := func(n string) {
			for _, p := range pkgs {
				p.names[n] = true
			}
		}
		member := func(typ, n string) {
			for _, p := range pkgs {
				if p.members[typ] == nil {
					p.members[typ] = map[string]bool{}
				}
				p.members[typ][n] = true
			}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					name(d.Name.Name)
				} else {
					member(receiverType(d.Recv.List[0].Type), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						name(s.Name.Name)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, field := range st.Fields.List {
								for _, n := range field.Names {
									member(s.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							name(n.Name)
						}
					}
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	for n := range outside {
		delete(byName, n)
	}
	return byName, byDir
}

// receiverType is the name of a method's receiver type (T, *T, T[K]).
func receiverType(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}
