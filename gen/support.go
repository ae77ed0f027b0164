package gen

import (
	"bytes"
	"embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ast/astutil"
)

// codecFiles is the source of package gen/internal/codec, which mbench
// pastes into the code it adds to a user's package: generated code must
// depend on nothing but the standard library.
//
//go:embed internal/codec/*.go
var codecFiles embed.FS

// supportSource returns the declarations the generated test file needs to
// load recorded values and compare them — mbenchSet, mbenchLoad,
// mbenchEqual, mbenchDiff, mbenchClone and their helpers — and the import
// paths they use. It is the codec's source with every top-level name
// prefixed with mbench, written for the oldest language version a
// user's module may declare: the predeclared any, which Go 1.18 added,
// is spelled interface{} (the codec uses no other construct newer than
// Go 1.16: no generics, min, max, clear or range over an integer), and
// it uses only the standard library of Go 1.16, so that the go command of
// the release a module declares builds it (TestStdlibVersion in the
// codec checks). The declarations refer to the imported packages by their
// own names ("sort"); supportSourceNamed renames them.
func supportSource() (decls string, imports []string) {
	s := support()
	return s.decls, s.imports
}

// notSupport are the codec's files generated tests do not need: the
// recording code and the writing of recorded files.
var notSupport = []string{"recorder.go", "marshal.go"}

var support = sync.OnceValue(func() codecSource {
	s, err := renameCodec("mbench", notSupport, nil)
	if err != nil {
		// The source is embedded and tested: this is a bug of mbench.
		panic(err)
	}
	return s
})

// supportSourceNamed is supportSource for a file that imports some of the
// packages under other names (a package-level name of the user's package
// takes "sort"): names maps an import path to the name the file uses;
// paths it lacks keep their package's name.
func supportSourceNamed(names map[string]string) (decls string, imports []string) {
	s, err := renameCodec("mbench", notSupport, func(path, name string) string {
		if n, ok := names[path]; ok {
			return n
		}
		return name
	})
	if err != nil {
		panic(err)
	}
	return s.decls, s.imports
}

// codecSource is the codec's source rewritten for another package.
type codecSource struct {
	decls   string
	imports []string          // import paths, sorted
	aliases map[string]string // import path → name, when imports are renamed
}

// renameCodec parses the codec's non-test files, except those skip names,
// and renames each top-level identifier X to prefix+X (the first letter
// upper-cased), so that the declarations can join a package whose other
// names do not start with prefix. Methods and fields keep their names.
// When importName is not nil, it gives the name under which the file
// imports each package (its path and its own name), so that a
// package-level name of the user's package (a function called sort)
// cannot clash with the file's imports.
func renameCodec(prefix string, skip []string, importName func(path, name string) string) (codecSource, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	names, err := fs.Glob(codecFiles, "internal/codec/*.go")
	if err != nil {
		return codecSource{}, err
	}
	sort.Strings(names)
	for _, name := range names {
		base := name[strings.LastIndex(name, "/")+1:]
		if strings.HasSuffix(name, "_test.go") || contains(skip, base) {
			continue
		}
		src, err := codecFiles.ReadFile(name)
		if err != nil {
			return codecSource{}, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return codecSource{}, err
		}
		files = append(files, f)
	}

	top := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					top[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						top[spec.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							top[n.Name] = true
						}
					}
				}
			}
		}
	}
	rename := func(id *ast.Ident) {
		if top[id.Name] {
			r, size := utf8.DecodeRuneInString(id.Name)
			id.Name = prefix + string(unicode.ToUpper(r)) + id.Name[size:]
		}
	}

	imports := map[string]bool{}
	aliases := map[string]string{}
	var out bytes.Buffer
	for _, f := range files {
		pkgNames := map[string]string{} // name in the file → alias
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return codecSource{}, err
			}
			if imp.Name != nil {
				return codecSource{}, fmt.Errorf("%s: a renamed import cannot be pasted", fset.Position(imp.Pos()))
			}
			imports[path] = true
			if importName != nil {
				name := path[strings.LastIndex(path, "/")+1:]
				alias := importName(path, name)
				aliases[path] = alias
				if alias != name {
					pkgNames[name] = alias
				}
			}
		}
		renameRefs(f, rename, pkgNames)
		spellAny(f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
			if out.Len() > 0 {
				out.WriteString("\n\n")
			}
			if err := cfg.Fprint(&out, fset, &printer.CommentedNode{Node: d, Comments: f.Comments}); err != nil {
				return codecSource{}, err
			}
		}
	}
	out.WriteString("\n")
	var paths []string
	for p := range imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	s := codecSource{decls: out.String(), imports: paths}
	if importName != nil {
		s.aliases = aliases
	}
	return s, nil
}

// renameRefs calls rename on every identifier of f that may refer to a
// package-level name: not on selected names (x.Name), struct fields,
// interface methods, method names, or keys of struct literals. It renames
// the package names of qualified identifiers as pkgNames says (the codec
// has no local variable named like a package it imports).
func renameRefs(f *ast.File, rename func(*ast.Ident), pkgNames map[string]string) {
	skip := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
			if x, ok := n.X.(*ast.Ident); ok {
				if alias, ok := pkgNames[x.Name]; ok {
					x.Name = alias
					skip[x] = true
				}
			}
		case *ast.StructType:
			for _, fld := range n.Fields.List {
				for _, name := range fld.Names {
					skip[name] = true
				}
			}
		case *ast.InterfaceType:
			for _, fld := range n.Methods.List {
				for _, name := range fld.Names {
					skip[name] = true
				}
			}
		case *ast.FuncDecl:
			if n.Recv != nil {
				skip[n.Name] = true
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						skip[id] = true
					}
				}
			}
		case *ast.BranchStmt:
			if n.Label != nil {
				skip[n.Label] = true
			}
		case *ast.LabeledStmt:
			skip[n.Label] = true
		case *ast.Ident:
			if !skip[n] {
				rename(n)
			}
		}
		return true
	})
}

// spellAny replaces each use of the predeclared identifier any in f by
// interface{}, which every language version accepts. The codec declares
// nothing named any, so every any is the predeclared one.
func spellAny(f *ast.File) {
	astutil.Apply(f, func(c *astutil.Cursor) bool {
		if id, ok := c.Node().(*ast.Ident); ok && id.Name == "any" {
			// The positions keep the braces on one line when printed.
			c.Replace(&ast.InterfaceType{Interface: id.Pos(), Methods: &ast.FieldList{Opening: id.Pos(), Closing: id.Pos()}})
		}
		return true
	}, nil)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
