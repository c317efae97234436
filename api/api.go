// Package api holds the API's OpenAPI 3.1 document (openapi.yaml), its 3.0
// rendition for code generators that read only 3.0 (openapi-3.0.yaml, made
// by internal/gen/openapi30), and the handlers that publish them: each
// document as YAML and JSON, and a /docs page
// that renders it with the Redoc bundle installed from npm and served
// locally, so the page works offline.
package api

import (
	"bytes"
	_ "embed"
	"net/http"
	"os"
	"path/filepath"
	"sync"
)

var (
	//go:embed openapi.yaml
	document []byte
	//go:embed openapi-3.0.yaml
	document30 []byte
)

// YAML returns the document as written (a copy).
func YAML() []byte { return append([]byte(nil), document...) }

// YAML30 returns the 3.0 rendition as generated (a copy).
func YAML30() []byte { return append([]byte(nil), document30...) }

// jsonOf converts a document to JSON once, on first use.
type jsonOf struct {
	yaml []byte
	once sync.Once
	json []byte
	err  error
}

func (c *jsonOf) get() ([]byte, error) {
	c.once.Do(func() { c.json, c.err = yamlToJSON(c.yaml) })
	return c.json, c.err
}

var converted, converted30 = &jsonOf{yaml: document}, &jsonOf{yaml: document30}

// JSON returns the document converted to JSON, keys in the YAML's order.
func JSON() ([]byte, error) { return converted.get() }

// JSON30 returns the 3.0 rendition converted to JSON, keys in its order.
func JSON30() ([]byte, error) { return converted30.get() }

// Paths the handlers serve.
const (
	YAMLPath   = "/openapi.yaml"
	JSONPath   = "/openapi.json"
	YAML30Path = "/openapi-3.0.yaml"
	JSON30Path = "/openapi-3.0.json"
	DocsPath   = "/docs"
	AssetPath  = "/docs/redoc.standalone.js"
)

// Options say where the docs page's script is.
type Options struct {
	// RedocBundle is the path of redoc.standalone.js, as npm installs it
	// (node_modules/redoc/bundles/redoc.standalone.js).
	RedocBundle string
}

// BundleIn is where npm installs the Redoc bundle under the repository root.
func BundleIn(root string) string {
	return filepath.Join(root, "node_modules", "redoc", "bundles", "redoc.standalone.js")
}

// Mount registers the document and docs handlers on mux. They need no
// token: the contract is public. /docs/ leads to /docs.
func Mount(mux *http.ServeMux, opts Options) {
	for _, path := range DocumentPaths {
		mux.HandleFunc("GET "+path, ServeDocument)
	}
	mux.HandleFunc("GET "+DocsPath, func(w http.ResponseWriter, _ *http.Request) { serveDocs(w, opts.RedocBundle) })
	mux.Handle("GET "+DocsPath+"/{$}", http.RedirectHandler(DocsPath, http.StatusFound))
	mux.HandleFunc("GET "+AssetPath, func(w http.ResponseWriter, r *http.Request) { serveBundle(w, r, opts.RedocBundle) })
}

// ServeDocument serves the documents alone, as YAML and JSON, in 3.1 and in
// the 3.0 rendition (404 elsewhere): what a deployed stack publishes (the
// portal's function serves them), where the docs page's bundle is not
// deployed.
func ServeDocument(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case YAMLPath:
		serveYAML(document)(w, r)
	case JSONPath:
		serveJSON(JSON)(w, r)
	case YAML30Path:
		serveYAML(document30)(w, r)
	case JSON30Path:
		serveJSON(JSON30)(w, r)
	default:
		http.NotFound(w, r)
	}
}

// DocumentPaths are the paths ServeDocument answers.
var DocumentPaths = []string{YAMLPath, JSONPath, YAML30Path, JSON30Path}

func serveYAML(doc []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
		_, _ = w.Write(doc)
	}
}

func serveJSON(convert func() ([]byte, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		b, err := convert()
		if err != nil {
			http.Error(w, "the OpenAPI document could not be converted to JSON", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(b)
	}
}

// docsPage loads only what this server serves: the document and the Redoc
// bundle. The policy forbids anything else (fonts, CDNs, trackers). The
// empty icon keeps the browser from asking for /favicon.ico, which the API
// answers 404 (a console error).
const docsPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Business platform API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="` + JSONPath + `"></redoc>
<script src="` + AssetPath + `"></script>
</body>
</html>
`

// docsPolicy keeps the page on this server. Redoc injects its styles and
// runs its search index in a worker made from a blob.
const docsPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"

// noBundlePage replaces the docs page while its script is not installed,
// which would otherwise leave the page blank.
const noBundlePage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Business platform API reference: not installed</title>
</head>
<body>
<h1>The API reference's script is not installed</h1>
<p>This page shows the API with Redoc, which npm installs under
<code>node_modules</code>. Run <code>npm ci</code> in the repository (<code>make run</code>
and <code>make deps</code> run it when npm is installed), then reload this page.</p>
<p>The document itself is here: <a href="` + YAMLPath + `">` + YAMLPath + `</a>, <a href="` + JSONPath + `">` + JSONPath + `</a>
(in OpenAPI 3.0, for code generators: <a href="` + YAML30Path + `">` + YAML30Path + `</a>, <a href="` + JSON30Path + `">` + JSON30Path + `</a>).</p>
</body>
</html>
`

// serveDocs serves the docs page, or says how to install its script when
// bundle is missing (checked on every request: installing it mends the page
// without a restart).
func serveDocs(w http.ResponseWriter, bundle string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", docsPolicy)
	if _, err := os.Stat(bundle); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(noBundlePage))
		return
	}
	_, _ = w.Write([]byte(docsPage))
}

// redocLogo is the image Redoc's sidebar loads from Redocly's CDN, which the
// page's policy (img-src 'self' data:) refuses with a console error; the
// bundle is served with a blank image in its place (the link's text stays).
var (
	redocLogo = []byte("https://cdn.redoc.ly/redoc/logo-mini.svg")
	blankLogo = []byte("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E")
)

func serveBundle(w http.ResponseWriter, r *http.Request, path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		http.Error(w, "The Redoc bundle is not installed: run npm ci in the repository (make run does when npm is installed)", http.StatusNotFound)
		return
	}
	st, err := os.Stat(path)
	if err != nil {
		http.Error(w, "The Redoc bundle could not be read", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	http.ServeContent(w, r, "", st.ModTime(), bytes.NewReader(bytes.ReplaceAll(raw, redocLogo, blankLogo)))
}

// FindBundle looks for the Redoc bundle under dir and the folders above it
// (the repository root holds node_modules), and returns where it would be
// under dir when it is nowhere.
func FindBundle(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return BundleIn(dir)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(BundleIn(d)); err == nil {
			return BundleIn(d)
		}
		if filepath.Dir(d) == d {
			return BundleIn(abs)
		}
	}
}
