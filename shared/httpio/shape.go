package httpio

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/bizplatform/api/shared/apierror"
)

// shape is what a Go type accepts as JSON, as far as property names go:
// which names an object may hold, and the shape of each value below. The
// body scan checks names against it before encoding/json decodes, because
// encoding/json matches names without regard to case ("AltId" fills
// altId, and of {"ALTID":..,"altId":..} the last one wins), where the API
// promises that a name other than a declared one is refused.
//
// A nil *shape accepts any names: interface values, json.RawMessage (its
// content is checked when DecodeValue decodes it), types with their own
// UnmarshalJSON or UnmarshalText, and scalars (a value of the wrong type is
// the decoder's to report).
type shape struct {
	// fields are a struct's property names and the shapes of their values;
	// nil when the type is not a struct.
	fields map[string]*shape
	// elem is the shape of a map's values (any names) or of an array's
	// elements.
	elem  *shape
	isMap bool
	isArr bool
}

// field returns the shape of the value under name in an object of shape s
// and whether name may appear there.
func (s *shape) field(name string) (*shape, bool) {
	if s != nil && s.fields != nil {
		f, ok := s.fields[name]
		return f, ok
	}
	return s.fieldOf(nil)
}

// fieldOf is field for a name still in the bytes of the body (looked up
// without a copy).
func (s *shape) fieldOf(name []byte) (*shape, bool) {
	switch {
	case s == nil:
		return nil, true
	case s.fields != nil:
		f, ok := s.fields[string(name)]
		return f, ok
	case s.isMap:
		return s.elem, true
	default:
		return nil, true // not an object: the decoder reports the type
	}
}

// item returns the shape of an element in an array of shape s.
func (s *shape) item() *shape {
	if s == nil || !s.isArr {
		return nil
	}
	return s.elem
}

// suggest names the declared property that name differs from only in case,
// or "".
func (s *shape) suggest(name string) string {
	if s == nil {
		return ""
	}
	for declared := range s.fields {
		if strings.EqualFold(declared, name) {
			return declared
		}
	}
	return ""
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

var shapes struct {
	sync.Mutex
	done sync.Map // reflect.Type -> *shape
}

// shapeOf returns the shape of t (built once per type).
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.done.Load(t); ok {
		return s.(*shape)
	}
	shapes.Lock()
	defer shapes.Unlock()
	building := map[reflect.Type]*shape{}
	s := buildShape(t, building)
	for bt, bs := range building {
		shapes.done.Store(bt, bs)
	}
	shapes.done.Store(t, s)
	return s
}

// buildShape follows encoding/json's rules for which type decodes what.
// building holds the shapes under construction, so that a recursive type
// refers to its own shape.
func buildShape(t reflect.Type, building map[reflect.Type]*shape) *shape {
	if s, ok := shapes.done.Load(t); ok {
		return s.(*shape)
	}
	if s, ok := building[t]; ok {
		return s
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		pt := reflect.PointerTo(t)
		if pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) {
			return nil
		}
	}
	if t.Implements(unmarshalerType) || t.Implements(textUnmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return buildShape(t.Elem(), building)
	case reflect.Struct:
		s := &shape{}
		building[t] = s
		s.fields = structFields(t, building)
		return s
	case reflect.Map, reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return nil // []byte is a base64 string
		}
		s := &shape{isMap: t.Kind() == reflect.Map, isArr: t.Kind() != reflect.Map}
		building[t] = s
		if s.elem = buildShape(t.Elem(), building); s.elem == nil {
			// Nothing below has names to check: no scan needed. (Nothing
			// refers to s either: only a struct below could.)
			delete(building, t)
			return nil
		}
		return s
	default:
		return nil
	}
}

// jsonField is a struct field as encoding/json sees it.
type jsonField struct {
	name   string
	typ    reflect.Type
	depth  int
	tagged bool
}

// structFields returns the property names of struct t: exported fields
// under their tag name or Go name, fields tagged "-" left out, and the
// fields of embedded structs promoted unless a shallower field (or, at the
// same depth, the one tagged field) takes the name; names that stay
// ambiguous are dropped, as encoding/json drops them.
func structFields(t reflect.Type, building map[reflect.Type]*shape) map[string]*shape {
	var found []jsonField
	visited := map[reflect.Type]bool{}
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0; depth++ {
		var next []reflect.Type
		for _, st := range level {
			if visited[st] {
				continue
			}
			visited[st] = true
			for i := range st.NumField() {
				f := st.Field(i)
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if f.Anonymous {
					if !f.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !f.IsExported() {
					continue
				}
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if name == "" && f.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, ft)
					continue
				}
				found = append(found, jsonField{name: orName(name, f.Name), typ: f.Type, depth: depth, tagged: name != ""})
			}
		}
		level = next
	}
	byName := map[string][]jsonField{}
	for _, f := range found {
		byName[f.name] = append(byName[f.name], f)
	}
	fields := make(map[string]*shape, len(byName))
	for name, fs := range byName {
		if f, ok := dominant(fs); ok {
			fields[name] = buildShape(f.typ, building)
		}
	}
	return fields
}

func orName(tagName, goName string) string {
	if tagName != "" {
		return tagName
	}
	return goName
}

// dominant picks the field that takes a name among fields sharing it: the
// shallowest, and among equally shallow ones the only tagged one.
func dominant(fs []jsonField) (jsonField, bool) {
	minDepth := fs[0].depth
	for _, f := range fs {
		minDepth = min(minDepth, f.depth)
	}
	var top []jsonField
	for _, f := range fs {
		if f.depth == minDepth {
			top = append(top, f)
		}
	}
	if len(top) == 1 {
		return top[0], true
	}
	var tagged []jsonField
	for _, f := range top {
		if f.tagged {
			tagged = append(tagged, f)
		}
	}
	if len(tagged) == 1 {
		return tagged[0], true
	}
	return jsonField{}, false
}

// checkNames checks the property names in raw against want, for a value
// that has been through scanJSON already (as part of a whole body): only
// the names are left to check, so it walks the bytes without decoding
// anything but escaped names. On input that is not well-formed JSON it
// stops and reports nothing: the decoder that follows reports it.
func checkNames(raw []byte, root string, want *shape) error {
	w := nameWalker{raw: raw}
	w.value(want, 0)
	if w.refused == nil {
		return nil
	}
	// The path to the refused name, gathered (innermost first) as the walk
	// unwound.
	at := root
	for i := len(w.trail) - 1; i >= 0; i-- {
		if p := w.trail[i]; p.key != nil {
			at = joinPath(at, string(p.key))
		} else {
			at += "[" + strconv.Itoa(p.index) + "]"
		}
	}
	return unknownName(w.refused.in, joinPath(at, w.refused.name), w.refused.name)
}

// refusal is a name an object's shape does not declare.
type refusal struct {
	in   *shape
	name string
}

type nameWalker struct {
	raw []byte
	i   int
	// refused is the first name refused; trail, the keys and indexes of the
	// values around it, innermost first (kept only then, so a walk that
	// refuses nothing allocates nothing).
	refused *refusal
	trail   []pathStep
	bad     bool // not well-formed JSON: stop without an error
}

// pathStep is an object's key (still in the body's bytes) or an array's
// index.
type pathStep struct {
	key   []byte
	index int
}

func (w *nameWalker) stop() bool { return w.refused != nil || w.bad }

func (w *nameWalker) space() {
	for w.i < len(w.raw) {
		switch w.raw[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// value walks one value whose shape is s.
func (w *nameWalker) value(s *shape, depth int) {
	w.space()
	if w.i >= len(w.raw) || depth > MaxDepth {
		w.bad = true
		return
	}
	switch w.raw[w.i] {
	case '{':
		w.object(s, depth)
	case '[':
		w.array(s.item(), depth)
	case '"':
		w.str()
	default:
		for w.i < len(w.raw) && !bytesContain(",]} \t\n\r", w.raw[w.i]) {
			w.i++
		}
	}
}

func (w *nameWalker) object(s *shape, depth int) {
	w.i++ // {
	for first := true; !w.stop(); first = false {
		w.space()
		if w.i < len(w.raw) && w.raw[w.i] == '}' && first {
			w.i++
			return
		}
		start := w.i
		w.str()
		if w.stop() {
			return
		}
		key := w.raw[start+1 : w.i-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var unquoted string
			if json.Unmarshal(w.raw[start:w.i], &unquoted) != nil {
				w.bad = true
				return
			}
			key = []byte(unquoted)
		}
		child, declared := s.fieldOf(key)
		if !declared {
			w.refused = &refusal{in: s, name: string(key)}
			return
		}
		w.space()
		if w.i >= len(w.raw) || w.raw[w.i] != ':' {
			w.bad = true
			return
		}
		w.i++
		if w.value(child, depth+1); w.refused != nil {
			w.trail = append(w.trail, pathStep{key: key})
			return
		}
		if w.closes('}') {
			return
		}
	}
}

// closes moves past the ',' after a member or element, or past the
// container's closing byte, reporting which it was.
func (w *nameWalker) closes(closing byte) bool {
	w.space()
	switch {
	case w.i >= len(w.raw):
		w.bad = true
	case w.raw[w.i] == ',':
		w.i++
	case w.raw[w.i] == closing:
		w.i++
		return true
	default:
		w.bad = true
	}
	return false
}

func (w *nameWalker) array(elem *shape, depth int) {
	w.i++ // [
	w.space()
	if w.i < len(w.raw) && w.raw[w.i] == ']' {
		w.i++
		return
	}
	for index := 0; !w.stop(); index++ {
		if w.value(elem, depth+1); w.refused != nil {
			w.trail = append(w.trail, pathStep{index: index})
			return
		}
		if w.closes(']') {
			return
		}
	}
}

// str moves past a string (w.i at its opening quote).
func (w *nameWalker) str() {
	if w.i >= len(w.raw) || w.raw[w.i] != '"' {
		w.bad = true
		return
	}
	for w.i++; w.i < len(w.raw); w.i++ {
		switch w.raw[w.i] {
		case '\\':
			w.i++
		case '"':
			w.i++
			return
		}
	}
	w.bad = true
}

// unknownName is the error for a property name the type does not declare
// (at is its path), pointing at the declared name it differs from only in
// case, or at what the type declares in its place (insteadOf).
func unknownName(s *shape, at, key string) error {
	msg := fmt.Sprintf("property %s should not exist", clip(at))
	if name := s.suggest(key); name != "" {
		msg += fmt.Sprintf(" (names are case-sensitive: did you mean %s?)", name)
	} else if hint := s.instead(key); hint != "" {
		msg += " (" + hint + ")"
	}
	return apierror.Invalid(msg)
}

// insteadOf lists names that clients bring from the habits of other
// operations of the public API, with what a type that does not take them
// declares in their place. The hint is given only when the type declares
// every name in uses, so it never points at a field that is not there.
var insteadOf = map[string]struct {
	uses []string
	hint string
}{
	"locationId": {[]string{"altId", "altType"}, "this body names its account by altId, with altType account"},
}

// instead returns the hint for the unknown name, or "".
func (s *shape) instead(name string) string {
	h, ok := insteadOf[name]
	if !ok || s == nil {
		return ""
	}
	for _, use := range h.uses {
		if _, declared := s.fields[use]; !declared {
			return ""
		}
	}
	return h.hint
}

func bytesContain(set string, c byte) bool { return strings.IndexByte(set, c) >= 0 }
