// Package source holds what the suggested fixes of the analyzers need to
// write Go source: the file that holds a position, the names a file gives
// its imports, and types spelled as that file can spell them.
package source

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// File returns the file of pass that contains pos, or nil.
func File(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// Imports maps the path of each package that file imports by name (not
// as _ or .) to the name it has in file.
func Imports(pkg *types.Package, file *ast.File) map[string]string {
	imports := map[string]string{}
	for _, spec := range file.Imports {
		path := strings.Trim(spec.Path.Value, `"`)
		switch {
		case spec.Name == nil:
			for _, p := range pkg.Imports() {
				if p.Path() == path {
					imports[path] = p.Name()
				}
			}
		case spec.Name.Name != "_" && spec.Name.Name != ".":
			imports[path] = spec.Name.Name
		}
	}
	return imports
}

// TypeString writes t as a file of pkg with the given imports can name
// it, and reports whether it can: every package t mentions is pkg or
// imported, and t is not an untyped constant's type.
func TypeString(pkg *types.Package, imports map[string]string, t types.Type) (string, bool) {
	if t == nil {
		return "", false
	}
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return "", false
	}
	if HasTypeParam(t) {
		return "", false // a type parameter (of a generic benchmark helper) has no name at package level
	}
	writable := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		name, ok := imports[p.Path()]
		if !ok {
			writable = false
		}
		return name
	})
	return s, writable
}

// Exported returns name with its first letter in upper case, for names
// such as sinkSplit41 made of an identifier.
func Exported(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// HasTypeParam reports whether t depends on a type parameter: it is one,
// holds one, is a generic type not instantiated, or is a named type whose
// underlying type holds one (a type declared inside a generic function).
// A type that does is unknown until instantiation: it has no name at
// package level, and types.Sizes panics on it.
func HasTypeParam(t types.Type) bool {
	seen := make(map[types.Type]bool) // recursive named types
	var walk func(types.Type) bool
	walk = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.TypeParam:
			return true
		case *types.Alias:
			return walk(types.Unalias(t))
		case *types.Named:
			for a := range t.TypeArgs().Types() {
				if walk(a) {
					return true
				}
			}
			return t.TypeParams().Len() > 0 && t.TypeArgs().Len() == 0 || walk(t.Underlying())
		case *types.Map:
			return walk(t.Key()) || walk(t.Elem())
		case interface{ Elem() types.Type }: // pointer, slice, array, channel
			return walk(t.Elem())
		case *types.Tuple:
			for v := range t.Variables() {
				if walk(v.Type()) {
					return true
				}
			}
		case *types.Signature:
			return walk(t.Params()) || walk(t.Results())
		case *types.Struct:
			for f := range t.Fields() {
				if walk(f.Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}
