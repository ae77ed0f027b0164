package gen

import (
	"encoding/json"
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// This file decides which dynamic types of recorded interface values the
// generated code can rebuild. The codec records an interface's value
// with the name of its dynamic type (the import path and name of a named
// type, composites of those: "*github.com/a/b.T", "[]int"); to decode it,
// the generated test registers every named type in those names, and it
// can only register a type it can refer to: a type of the segment's
// package, an exported type of a package it may import, or an unexported
// type that an exported variable of its package holds (binary.BigEndian
// for encoding/binary's bigEndian).

// A typeRef is how generated code refers to a named type to register
// it: by the type, or by an exported variable of that type.
type typeRef struct {
	typ types.Type
	v   *types.Var
}

// predeclaredNames are the types the codec knows without registration.
var predeclaredNames = map[string]bool{"interface {}": true, "error": true}

func init() {
	for _, b := range types.Typ {
		if b.Kind() != types.Invalid && b.Kind() != types.UnsafePointer && b.Info()&types.IsUntyped == 0 {
			predeclaredNames[b.Name()] = true
		}
	}
}

// typeLeaves returns the named types in a recorded type name: itself,
// or the types a pointer, slice, array or map is built from; predeclared
// types are left out.
func typeLeaves(name string) []string {
	switch {
	case predeclaredNames[name]:
		return nil
	case strings.HasPrefix(name, "*"):
		return typeLeaves(name[1:])
	case strings.HasPrefix(name, "[]"):
		return typeLeaves(name[2:])
	case strings.HasPrefix(name, "map["):
		depth := 0
		for i := 3; i < len(name); i++ {
			switch name[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth == 0 {
				return append(typeLeaves(name[4:i]), typeLeaves(name[i+1:])...)
			}
		}
	case strings.HasPrefix(name, "["):
		if i := strings.IndexByte(name, ']'); i > 0 {
			return typeLeaves(name[i+1:])
		}
	}
	return []string{name}
}

// resolveType returns how the generated code of a segment of pkg refers
// to the named type leaf ("import/path.Name"), or why it cannot.
//
// The package's tests count: test, when not nil, is the package compiled
// with its _test.go files, whose types and imports the generated file,
// one of them, may use.
func resolveType(pkg, test *types.Package, leaf string) (typeRef, string) {
	i := strings.LastIndex(leaf, ".")
	if i < 0 || strings.ContainsAny(leaf[i+1:], "[]{}() ") {
		return typeRef{}, "a type no package declares by name"
	}
	path, name := leaf[:i], leaf[i+1:]
	var p *types.Package
	for _, from := range []*types.Package{test, pkg} {
		if from != nil && p == nil {
			p = importedPackage(from, path)
		}
	}
	if p == nil {
		return typeRef{}, "its package is not among the program's imports"
	}
	tn, ok := p.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return typeRef{}, "not declared at package level (a type of a function, or of an external test package)"
	}
	if path == pkg.Path() || tn.Exported() && importable(pkg.Path(), path) {
		return typeRef{typ: tn.Type()}, ""
	}
	if importable(pkg.Path(), path) {
		for _, n := range p.Scope().Names() {
			if v, ok := p.Scope().Lookup(n).(*types.Var); ok && v.Exported() && types.Identical(v.Type(), tn.Type()) {
				return typeRef{v: v}, ""
			}
		}
	}
	return typeRef{}, "an unexported type of another package"
}

// importedPackage returns the package with path among pkg and the
// packages it imports, directly or not, or nil.
func importedPackage(pkg *types.Package, path string) *types.Package {
	seen := map[*types.Package]bool{}
	work := []*types.Package{pkg}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if p.Path() == path {
			return p
		}
		for _, q := range p.Imports() {
			if !seen[q] {
				seen[q] = true
				work = append(work, q)
			}
		}
	}
	return nil
}

// dynamicTypes returns the type names of the interface values in an
// encoded value: the strings under "$type" keys.
func dynamicTypes(raw json.RawMessage) []string {
	var tree any
	if json.Unmarshal(raw, &tree) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if name, ok := x["$type"].(string); ok {
				out = append(out, name)
			}
			for _, v := range x {
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(tree)
	return out
}

// rebuildable returns the named types the inputs of a recorded set hold
// in interfaces, to register, or why one cannot be rebuilt.
func rebuildable(pkg, test *types.Package, inputs []json.RawMessage) ([]string, string) {
	var leaves []string
	for _, in := range inputs {
		for _, name := range dynamicTypes(in) {
			for _, leaf := range typeLeaves(name) {
				if _, why := resolveType(pkg, test, leaf); why != "" {
					return nil, fmt.Sprintf("%s: %s", leaf, why)
				}
				leaves = append(leaves, leaf)
			}
		}
	}
	sort.Strings(leaves)
	return leaves, ""
}
