package hardening

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/validate"
)

// badCase is one bad request: it must answer 4xx with the JSON error body
// whose message contains names (in any case, unless exact).
type badCase struct {
	name   string
	method string
	path   string // with the query string
	body   []byte // nil: no body
	names  string
	// alsoNames is one more thing the message must name (in any case): a
	// request broken in two places is answered naming both.
	alsoNames string
	exact     bool
	status    int // the status it must answer (0: any 4xx)
}

// The sizes of over-long strings: beyond every field's bound, and big
// enough that storing it would approach DynamoDB's 400 KB item limit (yet
// within the 1 MiB body limit, so the handler, not the pipeline, refuses it).
const (
	longLen = 10_000
	hugeLen = 300_000
)

// casesFor derives the bad requests of one operation from its inputs.
func casesFor(in opInputs) []badCase {
	g := &generator{in: in}
	if in.variant != "" {
		tree := decodeTree(in.Body)
		walk(tree, func(p jsonPath, v any) {
			if g.inFocus(p) {
				g.valueCases(tree, p, v)
			}
		})
		return g.cases
	}
	g.pathCases()
	g.queryCases()
	if in.Op.Body {
		g.bodyCases()
	} else {
		g.unwantedBodyCases()
	}
	return g.cases
}

type generator struct {
	in          opInputs
	cases       []badCase
	centralDone bool
}

func (g *generator) add(name, path, query string, body []byte, names string) {
	if query != "" {
		path += "?" + query
	}
	g.cases = append(g.cases, badCase{name: name, method: g.in.Op.Method, path: path, body: body, names: names})
}

// addExact adds a body case whose message must hold names exactly as
// written (case included).
func (g *generator) addExact(name string, body []byte, names string) {
	g.add(name, g.in.Path, g.in.Query, body, names)
	g.cases[len(g.cases)-1].exact = true
}

// good returns the good request's body, nil when it has none.
func (g *generator) goodBody() []byte {
	if g.in.Body == "" {
		return nil
	}
	return []byte(g.in.Body)
}

func (g *generator) kindOf(key string, fallback samples.Kind) samples.Kind {
	if k, ok := g.in.Kinds[key]; ok {
		return k
	}
	return fallback
}

// inFocus reports whether a variant breaks the value at p.
func (g *generator) inFocus(p jsonPath) bool {
	s := p.String()
	for _, f := range g.in.focus {
		if s == f || strings.HasPrefix(s, f+".") || strings.HasPrefix(s, f+"[") {
			return true
		}
	}
	return false
}

func (g *generator) isOptional(key string) bool { return slices.Contains(g.in.Optional, key) }

func (g *generator) isNullable(key string) bool {
	return slices.Contains(g.in.Nullable, key)
}

// Path values.

var pathValue = regexp.MustCompile(`\{([A-Za-z]+)\}`)

func (g *generator) pathCases() {
	specSegs := strings.Split(g.in.Op.Path, "/")
	goodSegs := strings.Split(g.in.Path, "/")
	for i, seg := range specSegs {
		m := pathValue.FindStringSubmatch(seg)
		if m == nil {
			continue
		}
		name := m[1]
		k := g.kindOf("{"+name+"}", samples.ID)
		with := func(v string) string {
			segs := slices.Clone(goodSegs)
			segs[i] = v
			return strings.Join(segs, "/")
		}
		for _, bad := range badPathIDs(k) {
			g.add(fmt.Sprintf("%s %s is refused", name, bad.desc), with(bad.escaped), g.in.Query, g.goodBody(), name)
		}
		if g.in.Op.Body {
			// A bad path id is one of the request's broken rules, named with
			// the body's; a body that is not JSON is answered first, alone.
			g.add(fmt.Sprintf("%s holding '#' is named with a property the body must not have", name), with("demo%23id"), g.in.Query,
				[]byte(`{"zzUnknown":1,`+g.in.Body[1:]), name)
			g.cases[len(g.cases)-1].alsoNames = "zzUnknown"
			g.add(fmt.Sprintf("%s holding '#' with a body that is not JSON is answered as malformed JSON", name), with("demo%23id"), g.in.Query,
				[]byte("{"), "malformed JSON")
			g.cases[len(g.cases)-1].status = http.StatusBadRequest
		}
		// A whole '.' or '..' segment makes the path non-canonical: no
		// operation is served there, whatever the segments around it.
		for _, seg := range []string{"..", "."} {
			g.add(fmt.Sprintf("%s as the segment %q is refused", name, seg), with(seg), g.in.Query, g.goodBody(), "No operation")
		}
	}
}

type badValue struct {
	desc    string
	escaped string // as it goes in a URL
}

func badPathIDs(k samples.Kind) []badValue {
	vs := []badValue{
		{"holding '#'", "demo%23id"},
		{"being '#'", "%23"},
		{"holding '/'", "demo%2Fid"},
		{"holding '..'", "demo..id"},
		{"holding an escaped '..' path", "..%2F..%2Fdemo"},
		{"holding a NUL", "demo%00id"},
		{"being a NUL", "%00"},
		{"holding a space", "demo%20id"},
		{"holding a percent sign", "demo%2525id"},
		{"holding invalid UTF-8", "demo%FFid"},
		{"holding a non-ASCII letter", "d%C3%A9mo"},
		{"of 65 characters", strings.Repeat("a", 65)},
		{"of 1000 characters", strings.Repeat("a", 1000)},
	}
	if k == samples.HexID {
		vs = append(vs,
			badValue{"of 23 hexadecimal digits", strings.Repeat("a", 23)},
			badValue{"of 25 hexadecimal digits", strings.Repeat("a", 25)},
			badValue{"of 24 non-hexadecimal letters", strings.Repeat("z", 24)},
		)
	}
	return vs
}

// Query parameters.

type param struct{ name, value string }

func parseParams(raw string) []param {
	var ps []param
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, "=")
		ps = append(ps, param{name, value})
	}
	return ps
}

func encodeParams(ps []param) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.name + "=" + p.value
	}
	return strings.Join(parts, "&")
}

func (g *generator) queryCases() {
	ps := parseParams(g.in.Query)
	if len(ps) == 0 {
		return
	}
	for i, p := range ps {
		key := "?" + p.name
		k := g.kindOf(key, samples.Text)
		with := func(v string) string {
			c := slices.Clone(ps)
			c[i].value = v
			return encodeParams(c)
		}
		add := func(desc, query string) {
			g.add(fmt.Sprintf("query parameter %s %s is refused", p.name, desc), g.in.Path, query, nil, p.name)
		}
		add("given twice with the same value", encodeParams(slices.Insert(slices.Clone(ps), i, p)))
		add("given twice with different values", encodeParams(slices.Insert(slices.Clone(ps), i, param{p.name, g.otherValue(k, p.value)})))
		if !g.isOptional(key) {
			add("left out", encodeParams(slices.Delete(slices.Clone(ps), i, i+1)))
			add("sent empty", with(""))
			bare := slices.Clone(ps)
			bare[i] = param{name: p.name}
			add("sent without '='", strings.Replace(encodeParams(bare), p.name+"=", p.name, 1))
		}
		for _, bad := range badQueryValues(k) {
			add(bad.desc, with(bad.escaped))
		}
		if k == samples.Enum {
			other := strings.ToUpper(p.value)
			if other == p.value {
				other = strings.ToLower(p.value)
			}
			add("in another case", with(other))
		}
	}
	g.add("a query string with a malformed escape is refused", g.in.Path, g.in.Query+"&x=%zz", nil, "query string")
	g.add("a query string with a semicolon separator is refused", g.in.Path, g.in.Query+";x=1", nil, "query string")
}

// otherValue is a second value of the same kind as v, for repeats.
func (g *generator) otherValue(k samples.Kind, v string) string {
	switch k {
	case samples.Integer:
		return "7"
	case samples.Boolean:
		return "true"
	case samples.Date:
		return "2026-09-02"
	default:
		return v + "x"
	}
}

func badQueryValues(k samples.Kind) []badValue {
	vs := []badValue{
		{"holding a NUL", "a%00b"},
		{"holding an escape character", "a%1Bb"},
		{"holding a DEL character", "a%7Fb"},
		{"holding invalid UTF-8", "a%FFb"},
		{"holding a lone UTF-8 continuation byte", "%80"},
		{"holding an encoded UTF-16 surrogate", "%ED%A0%80"},
		{fmt.Sprintf("of %d characters", longLen), strings.Repeat("a", longLen)},
	}
	switch k {
	case samples.ID:
		vs = append(vs,
			badValue{"holding '#'", "demo%23id"},
			badValue{"holding '/'", "demo%2Fid"},
			badValue{"being '..'", ".."},
			badValue{"holding a space", "demo+id"},
			badValue{"of 65 characters", strings.Repeat("a", 65)},
			badValue{"naming a key prefix", "ACCOUNT%23other"},
		)
	case samples.Integer:
		vs = append(vs,
			badValue{"being a word", "ten"},
			badValue{"being NaN", "NaN"},
			badValue{"being Infinity", "Infinity"},
			badValue{"being 1e400", "1e400"},
			badValue{"being a fraction", "1.5"},
			badValue{"being negative", "-1"},
			badValue{"being hexadecimal", "0x10"},
			badValue{"overflowing 64 bits", "99999999999999999999999"},
			badValue{"beyond its range", "99999999999999"},
		)
	case samples.Boolean:
		vs = append(vs, badValue{"being a number", "1"}, badValue{"being yes", "yes"}, badValue{"being True", "True"})
	case samples.Enum:
		vs = append(vs, badValue{"naming no known value", "notAKnownValue"})
	case samples.Date:
		vs = append(vs,
			badValue{"being no date", "yesterday"},
			badValue{"being a date that does not exist", "2026-02-30"},
			badValue{"being a timestamp", "2026-09-01T00%3A00%3A00Z"},
			badValue{"being a year 0 date", "0000-01-01"},
		)
	}
	return vs
}

// Bodies.

func (g *generator) unwantedBodyCases() {
	for _, b := range []struct{ desc, body string }{
		{"an empty JSON object", "{}"},
		{"a JSON array", "[]"},
		{"plain text", "hello"},
		{"one space", " "},
	} {
		g.add(fmt.Sprintf("a body of %s on an operation that takes none is refused", b.desc), g.in.Path, g.in.Query, []byte(b.body), "takes no request body")
	}
}

func (g *generator) bodyCases() {
	good := g.in.Body
	path, query := g.in.Path, g.in.Query
	raw := func(desc, body, names string) {
		g.add(desc, path, query, []byte(body), names)
	}
	// The body as a whole.
	raw("an empty body is refused", "", "body is required")
	raw("a body of spaces is refused", "   \n", "body is required")
	raw("a JSON array is refused", "["+good+"]", "JSON object")
	raw("an empty JSON array is refused", "[]", "JSON object")
	raw("a JSON string is refused", `"text"`, "JSON object")
	raw("a JSON number is refused", "42", "JSON object")
	raw("a JSON boolean is refused", "true", "JSON object")
	raw("JSON null is refused", "null", "JSON object")
	raw("plain text is refused", "altId=demoLocAlpha00000001", "JSON object")
	// A body that is not JSON is a bad request saying so, whatever names it
	// holds: its names are not checked before it parses.
	malformed := func(desc, body string) {
		raw(desc, body, "malformed JSON")
		g.cases[len(g.cases)-1].status = http.StatusBadRequest
	}
	malformed("an unclosed object is malformed JSON", "{")
	malformed("a body cut in half is malformed JSON", good[:len(good)/2])
	malformed("a body without its last brace is malformed JSON", good[:len(good)-1])
	malformed("a body cut short after an unknown property's name is malformed JSON", `{"altId":`)
	malformed("a body cut short inside an unknown property's value is malformed JSON", `{"zzUnknown":"x`)
	malformed("a body cut short after a known property's name is malformed JSON", `{"`+sortedKeys(decodeTree(good).(map[string]any))[0]+`":`)
	raw("single-quoted JSON is refused", strings.ReplaceAll(good, `"`, `'`), "JSON")
	raw("a trailing comma is refused", good[:len(good)-1]+",}", "JSON")
	raw("a comment is refused", "/* c */"+good, "JSON")
	raw("a mismatched bracket is refused", good[:len(good)-1]+"]", "JSON")
	raw("two objects are refused", good+good, "one JSON object")
	raw("trailing text is refused", good+"x", "JSON")
	raw("a byte-order mark is refused", "\uFEFF"+good, "JSON")
	raw("invalid UTF-8 outside strings is refused", good[:len(good)-1]+"\xff}", "JSON")
	raw("an unknown property is refused", `{"zzUnknown":1,`+good[1:], "zzUnknown")
	raw("an object nested 40 levels deep is refused", `{"zzDeep":`+nest(40, `{"a":`, "}", "1")+","+good[1:], "levels deep")
	raw("an array nested 40 levels deep is refused", `{"zzDeep":`+nest(40, "[", "]", "1")+","+good[1:], "levels deep")
	raw("an array nested 100000 levels deep is refused", `{"zzDeep":`+nest(100_000, "[", "]", "1")+","+good[1:], "levels deep")

	tree := decodeTree(good)
	top := tree.(map[string]any)
	first := sortedKeys(top)[0]
	g.add(fmt.Sprintf("%s nested 40 levels deep is refused", first), path, query,
		render(replaceAt(tree, jsonPath{first}, rawJSON(nest(40, "[", "]", `"x"`)))), "levels deep")
	// Every top-level property given twice (with its own value, so that
	// only the repetition is wrong).
	for _, key := range sortedKeys(top) {
		v, _ := json.Marshal(top[key])
		raw(fmt.Sprintf("%s given twice is refused", key), fmt.Sprintf(`{%q:%s,%s`, key, v, good[1:]), key)
	}
	// Every top-level name in another case, alone and as a second spelling
	// before the right one (which encoding/json would let win or lose by
	// order): names match exactly or not at all.
	for _, key := range sortedKeys(top) {
		other := otherCase(key)
		v, _ := json.Marshal(top[key])
		g.addExact(fmt.Sprintf("%s spelt %s is refused", key, other), render(renameKey(top, key, other)), other)
		g.addExact(fmt.Sprintf("%s spelt %s before %s is refused", key, other, key), []byte(fmt.Sprintf(`{%q:%s,%s`, other, v, good[1:])), other)
	}
	// Every value, and every container, broken in every way its kind allows.
	walk(tree, func(p jsonPath, v any) {
		g.valueCases(tree, p, v)
	})
}

// nest wraps inner in n levels of open/close.
func nest(n int, open, close, inner string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// valueCases breaks the value at p.
func (g *generator) valueCases(tree any, p jsonPath, v any) {
	key := p.pattern()
	name := p.name()
	k := g.kindOf(key, inferKind(v))
	set := func(desc string, nv any, names string) {
		g.add(fmt.Sprintf("%s %s is refused", p.String(), desc), g.in.Path, g.in.Query, render(replaceAt(tree, p, nv)), names)
	}
	if p.inObject() && !g.isOptional(key) {
		g.add(fmt.Sprintf("%s left out is refused", p.String()), g.in.Path, g.in.Query, render(removeAt(tree, p)), name)
	}
	if !g.isNullable(key) && !(g.isOptional(key) && !g.strictNull()) {
		set("as null", nil, name)
	}
	switch v := v.(type) {
	case map[string]any:
		set("as a string", "text", name)
		set("as a number", 1, name)
		set("as an array", []any{}, name)
		first := firstKey(v)
		twice := fmt.Sprintf("{%q:%s,%s", first, mustJSON(v[first]), strings.TrimPrefix(string(mustJSON(v)), "{"))
		set("with a property given twice", rawJSON(twice), first)
		set("with an unknown property", mergeUnknown(v), "zzUnknown")
		for _, key := range sortedKeys(v) {
			other := otherCase(key)
			g.addExact(fmt.Sprintf("%s with %s spelt %s is refused", p.String(), key, other), render(replaceAt(tree, p, renameKey(v, key, other))), other)
		}
		return
	case []any:
		set("as a string", "text", name)
		set("as a number", 1, name)
		set("as an object", map[string]any{}, name)
		if len(v) > 0 {
			if _, isObj := v[0].(map[string]any); isObj {
				set("holding a number", append([]any{1}, v[1:]...), name)
				set("holding null", append([]any{nil}, v[1:]...), name)
			}
		}
		return
	}
	switch k {
	case samples.Text, samples.ID, samples.HexID, samples.Enum, samples.IntText, samples.WebURL:
		set("as a number", 12345, name)
		set("as an object", map[string]any{}, name)
		set(fmt.Sprintf("of %d characters", longLen), strings.Repeat("x", longLen), name)
		// The body's decoder refuses these for every string alike, whatever
		// the field, so once per description shows they are refused; the
		// cases above are per field because each field has its own rules.
		if !g.centralDone {
			g.centralDone = true
			set("as a boolean", true, name)
			set("as an array", []any{"a"}, name)
			set(fmt.Sprintf("of %d characters", hugeLen), strings.Repeat("x", hugeLen), name)
			set(fmt.Sprintf("of %d four-byte characters", longLen/4), strings.Repeat("😀", longLen/4), name)
			set("holding a NUL", "a\x00b", name)
			set("holding invalid UTF-8", rawJSON("\"a\xffb\""), name)
			set("holding an escape character", "a\x1bb", name)
			set("holding a C1 control character", "a\u0085b", name)
			set("holding a lone surrogate escape", rawJSON(`"a\ud800b"`), name)
			set("holding an overlong UTF-8 encoding", rawJSON("\"a\xc0\xafb\""), name)
		}
	case samples.Number, samples.Integer:
		set("as a string", "12", name)
		set("as a boolean", true, name)
		set("as an object", map[string]any{}, name)
		set("as an array", []any{1}, name)
		set(`as the string "NaN"`, "NaN", name)
		set(`as the string "Infinity"`, "Infinity", name)
		set(`as the string "-Infinity"`, "-Infinity", name)
		set("as the bare word NaN", rawJSON("NaN"), "JSON")
		set("as the bare word Infinity", rawJSON("Infinity"), "JSON")
		set("as 1e400", rawJSON("1e400"), name)
		set("as -1e400", rawJSON("-1e400"), name)
		set("as 1e300", rawJSON("1e300"), name)
		set("as 1e126", rawJSON("1e126"), name)
		set("as 1e-200", rawJSON("1e-200"), name)
		set("as -1e-200", rawJSON("-1e-200"), name)
		set("as -1", -1, name)
		set("as a hexadecimal literal", rawJSON("0x10"), "JSON")
		set("with a leading zero", rawJSON("007"), "JSON")
		if k == samples.Integer {
			set("as a fraction", 1.5, name)
			set("as 2^63", rawJSON("9223372036854775808"), name)
		}
	case samples.Boolean:
		set("as a string", "true", name)
		set("as a number", 1, name)
		set("as an object", map[string]any{}, name)
		set("as an array", []any{true}, name)
	}
	switch k {
	case samples.ID, samples.HexID:
		for _, bad := range []string{"demo#id", "demo/id", "..", "demo%00id", "demo id", "", strings.Repeat("a", 65), "ACCOUNT#other", "dém"} {
			set(fmt.Sprintf("as %q", clipName(bad)), bad, name)
		}
		if k == samples.HexID {
			set("of 23 hexadecimal digits", strings.Repeat("a", 23), name)
			set("of 24 non-hexadecimal letters", strings.Repeat("z", 24), name)
		}
	case samples.Enum:
		set("naming no known value", "notAKnownValue", name)
		set("empty", "", name)
	case samples.WebURL:
		for _, bad := range []string{
			"https://example.com/café", "not a url", "ftp://example.com/x", "https://", "//example.com/x",
			"https://user:pw@example.com/", "https://exa mple.com/", "javascript:alert(1)",
		} {
			set(fmt.Sprintf("as %q", clipName(bad)), bad, name)
		}
		set("of 3000 characters", "https://example.com/"+strings.Repeat("a", 3000), name)
		// Every outside URL passes one check: https, strict syntax, and a
		// public host in whatever spelling.
		for _, bad := range nonPublicURLs {
			set(fmt.Sprintf("as %s", bad), bad, name+" "+validate.OutsideURLRule)
		}
	case samples.IntText:
		for _, bad := range []string{"NaN", "Infinity", "1e400", "-1", "1.5", "ten", "99999999999999999999", ""} {
			set(fmt.Sprintf("as %q", bad), bad, name)
		}
	}
}

// nonPublicURLs are URLs an outside-URL field refuses: plain http, what a
// URL may not hold, and hosts that are not public in their many spellings.
var nonPublicURLs = []string{
	"http://api.example.org/hook",
	`https://api.example.org/"x"`,
	"https://api.example.org/<x>",
	`https://api.example.org\x`,
	"https://localhost/x",
	"https://api.localhost/x",
	"https://localhost./x",
	"https://api.example.org./x",
	"https://metadata.google.internal/computeMetadata/v1/",
	"https://printer.local/x",
	"https://api.test/x",
	"https://%6c%6f%63%61%6c%68%6f%73%74/x",
	"https://xn--a.example.org/x",
	"https://127.0.0.1/x",
	"https://127.1/x",
	"https://0x7f000001/x",
	"https://2130706433/x",
	"https://0177.0.0.1/x",
	"https://0.0.0.0/x",
	"https://10.0.0.1/x",
	"https://100.64.0.1/x",
	"https://169.254.169.254/latest/meta-data/",
	"https://172.16.0.1/x",
	"https://192.0.0.1/x",
	"https://192.168.0.1/x",
	"https://198.18.0.1/x",
	"https://224.0.0.1/x",
	"https://240.0.0.1/x",
	"https://[::1]/x",
	"https://[::ffff:127.0.0.1]/x",
	"https://[::127.0.0.1]/x",
	"https://[64:ff9b::a9fe:a9fe]/x",
	"https://[2002:7f00:1::]/x",
	"https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x",
	"https://[fd00::1]/x",
	"https://[fe80::1]/x",
	"https://[ff02::1]/x",
}

func (g *generator) strictNull() bool { return g.in.StrictNull }

func clipName(s string) string {
	if len(s) > 12 {
		return fmt.Sprintf("%s... (%d characters)", s[:8], len(s))
	}
	return s
}

func inferKind(v any) samples.Kind {
	switch v.(type) {
	case json.Number:
		return samples.Number
	case bool:
		return samples.Boolean
	default:
		return samples.Text
	}
}

func mergeUnknown(m map[string]any) map[string]any {
	out := map[string]any{"zzUnknown": 1}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// otherCase spells a property name with its first letter in the other
// case (altId: AltId, URL: uRL).
func otherCase(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	if unicode.IsUpper(r) {
		return string(unicode.ToLower(r)) + name[size:]
	}
	return string(unicode.ToUpper(r)) + name[size:]
}

// renameKey returns a copy of m with the property from renamed to.
func renameKey(m map[string]any, from, to string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k == from {
			k = to
		}
		out[k] = v
	}
	return out
}

func firstKey(m map[string]any) string { return sortedKeys(m)[0] }

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// JSON trees: bodies decoded into map[string]any / []any / json.Number /
// string / bool / nil, changed at one path, and encoded again.

func decodeTree(s string) any {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic(fmt.Sprintf("good body %s: %v", s, err))
	}
	return v
}

// jsonPath is a list of object keys (string) and array indexes (int).
type jsonPath []any

func (p jsonPath) String() string {
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		case int:
			b.WriteString("[" + strconv.Itoa(s) + "]")
		}
	}
	return b.String()
}

// pattern is the path with every index written [], as opInputs names it.
func (p jsonPath) pattern() string {
	return regexp.MustCompile(`\[\d+\]`).ReplaceAllString(p.String(), "[]")
}

// name is the last property name on the path: what a message must name.
func (p jsonPath) name() string {
	for i := len(p) - 1; i >= 0; i-- {
		if s, ok := p[i].(string); ok {
			return s
		}
	}
	return ""
}

func (p jsonPath) inObject() bool {
	_, ok := p[len(p)-1].(string)
	return ok
}

// walk calls fn for every value below the root (containers before their
// contents).
func walk(v any, fn func(jsonPath, any)) {
	var rec func(p jsonPath, v any)
	rec = func(p jsonPath, v any) {
		if len(p) > 0 {
			fn(p, v)
		}
		switch v := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(v) {
				rec(append(slices.Clone(p), k), v[k])
			}
		case []any:
			for i, item := range v {
				rec(append(slices.Clone(p), i), item)
			}
		}
	}
	rec(nil, v)
}

// replaceAt returns a deep copy of tree with the value at p replaced.
func replaceAt(tree any, p jsonPath, nv any) any {
	if len(p) == 0 {
		return nv
	}
	switch t := tree.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			out[k] = v
		}
		out[p[0].(string)] = replaceAt(t[p[0].(string)], p[1:], nv)
		return out
	case []any:
		out := slices.Clone(t)
		out[p[0].(int)] = replaceAt(t[p[0].(int)], p[1:], nv)
		return out
	}
	panic("path " + p.String() + " goes through a scalar")
}

// removeAt returns a copy of tree without the object property at p.
func removeAt(tree any, p jsonPath) any {
	parent := p[:len(p)-1]
	var container any = tree
	for _, s := range parent {
		switch c := container.(type) {
		case map[string]any:
			container = c[s.(string)]
		case []any:
			container = c[s.(int)]
		}
	}
	m := map[string]any{}
	for k, v := range container.(map[string]any) {
		if k != p[len(p)-1].(string) {
			m[k] = v
		}
	}
	return replaceAt(tree, parent, m)
}

// rawJSON is written into a body as it is, even when it is not valid JSON
// (invalid UTF-8, 1e400, NaN).
type rawJSON string

var placeholder = regexp.MustCompile(`"\\u0001raw(\d+)\\u0001"`)

// render encodes a tree, writing rawJSON values verbatim.
func render(tree any) []byte {
	var raws []string
	var swap func(v any) any
	swap = func(v any) any {
		switch v := v.(type) {
		case rawJSON:
			raws = append(raws, string(v))
			return fmt.Sprintf("\x01raw%d\x01", len(raws)-1)
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				out[k] = swap(x)
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = swap(x)
			}
			return out
		}
		return v
	}
	b := mustJSON(swap(tree))
	return placeholder.ReplaceAllFunc(b, func(m []byte) []byte {
		i, _ := strconv.Atoi(string(placeholder.FindSubmatch(m)[1]))
		return []byte(raws[i])
	})
}

func mustJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
