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
	if typeParam(t) {
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

// typeParam reports whether t is or contains a type parameter. A named
// type is looked at through its type arguments only, never its underlying
// type, so the walk ends on recursive types.
func typeParam(t types.Type) bool {
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return typeParam(t.Elem())
	case *types.Slice:
		return typeParam(t.Elem())
	case *types.Array:
		return typeParam(t.Elem())
	case *types.Chan:
		return typeParam(t.Elem())
	case *types.Map:
		return typeParam(t.Key()) || typeParam(t.Elem())
	case *types.Tuple:
		for v := range t.Variables() {
			if typeParam(v.Type()) {
				return true
			}
		}
	case *types.Signature:
		return typeParam(t.Params()) || typeParam(t.Results())
	case *types.Struct:
		for f := range t.Fields() {
			if typeParam(f.Type()) {
				return true
			}
		}
	case *types.Named:
		for a := range t.TypeArgs().Types() {
			if typeParam(a) {
				return true
			}
		}
	case *types.Alias:
		return typeParam(types.Unalias(t))
	}
	return false
}
