package timedsetup

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"github.com/mbench/mbench/vet/internal/source"
	"golang.org/x/tools/go/types/typeutil"
)

// expensive reports whether s allocates a lot, does I/O, or builds data.
// Function literals are not entered: defining a closure costs nothing.
func (c *checker) expensive(s ast.Stmt) bool {
	return c.expensiveNode(s, 0)
}

// expensiveNode is expensive for any node; depth bounds the chains of
// variables that largeInput follows.
func (c *checker) expensiveNode(node ast.Node, depth int) bool {
	info := c.pass.TypesInfo
	found := false
	var stack []ast.Node
	ast.Inspect(node, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			found = c.heavyLoop(n)
		case *ast.RangeStmt:
			found = c.heavyLoop(n)
		case *ast.CompositeLit:
			found = isSliceOrMap(info.TypeOf(n)) && countElts(n) >= largeLiteral
		case *ast.CallExpr:
			found = c.expensiveCall(n, inLoop(stack), depth)
		}
		if found {
			return false
		}
		stack = append(stack, n)
		return true
	})
	return found
}

func inLoop(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// expensiveCall reports whether call allocates a lot, does I/O, or asks
// the package under test to build something of a given size. Encoding
// and decoding count only in a loop or on a large input: one
// json.Marshal of a small value costs about one operation of the loop
// (segmentio/encoding json_test.go), a bias of 1/b.N.
func (c *checker) expensiveCall(call *ast.CallExpr, looped bool, depth int) bool {
	info := c.pass.TypesInfo
	switch fn := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		switch fn.Name() {
		case "make":
			return c.bigMake(call, largeBareAlloc)
		case "new":
			return len(call.Args) == 1 && c.sizeof(info.TypeOf(call.Args[0])) >= largeBareAlloc
		}
	case *types.Func:
		if isEncoding(fn) {
			return looped || c.largeInput(call, depth)
		}
		if isIO(fn) {
			return true
		}
		// Only functions: a method with an integer argument is as often a
		// lookup (s.Get(k)) as a size.
		if fn.Signature().Recv() == nil && benchfn.UnderTest(c.pass, fn.Pkg()) && c.sizeArg(call, fn) {
			return true
		}
	}
	return false
}

// bigMake reports whether a make of a slice or map reserves at least
// largeAlloc bytes. Channels are left out: their buffers are rarely the
// setup that matters.
func (c *checker) bigMake(call *ast.CallExpr, limit int64) bool {
	info := c.pass.TypesInfo
	if len(call.Args) < 2 {
		return false
	}
	var elem int64
	switch t := info.TypeOf(call.Args[0]).Underlying().(type) {
	case *types.Slice:
		elem = c.sizeof(t.Elem())
	case *types.Map:
		elem = c.sizeof(t.Key()) + c.sizeof(t.Elem())
	default:
		return false
	}
	for _, arg := range call.Args[1:] {
		if c.large(arg, limit/max(elem, 1)) {
			return true
		}
	}
	return false
}

// sizeArg reports whether call passes an argument of at least largeCount
// to a parameter of type int, the type of sizes and counts in Go. Other
// integers (int64 seconds, seeds, bytes, runes) are values, not sizes.
//
// A size that reads b.N does not count (NewPriorityQueue(b.N, false) in
// Workiva go-datastructures): the cost it adds is proportional to b.N, a
// constant per operation rather than a bias, and bnsize's domain.
func (c *checker) sizeArg(call *ast.CallExpr, fn *types.Func) bool {
	for i, arg := range call.Args {
		if benchfn.ReadsN(c.pass.TypesInfo, arg, c.cur.B) {
			continue
		}
		if p := paramType(fn, i); p != nil && types.Identical(p, types.Typ[types.Int]) && c.large(arg, largeCount) {
			return true
		}
	}
	return false
}

// largeInput reports whether an argument of call is a large input: a
// slice or map literal of largeLiteral elements or more, or a variable
// whose single definition is expensive (a big make, a generated data set)
// or which a heavy loop of the body fills, looked up through &v and
// conversions.
func (c *checker) largeInput(call *ast.CallExpr, depth int) bool {
	if depth > maxDepth {
		return false
	}
	info := c.pass.TypesInfo
	for _, arg := range call.Args {
		arg = ast.Unparen(arg)
		for {
			if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
				arg = ast.Unparen(u.X)
				continue
			}
			if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 {
				if tv, ok := info.Types[conv.Fun]; ok && tv.IsType() {
					arg = ast.Unparen(conv.Args[0])
					continue
				}
			}
			break
		}
		switch a := arg.(type) {
		case *ast.CompositeLit:
			if countElts(a) >= largeLiteral {
				return true
			}
		case *ast.Ident:
			v, ok := info.Uses[a].(*types.Var)
			if !ok {
				continue
			}
			def := c.sizes.defs[v]
			if def != nil && c.expensiveNode(def, depth+1) {
				return true
			}
			// An encoder walks all of its input: a 1 MiB buffer made for
			// it is large, though its allocation alone is cheap.
			if mk, ok := def.(*ast.CallExpr); ok {
				if b, ok := typeutil.Callee(info, mk).(*types.Builtin); ok && b.Name() == "make" && c.bigMake(mk, largeAlloc) {
					return true
				}
			}
			if c.filledByHeavyLoop(v) {
				return true
			}
		}
	}
	return false
}

// filledByHeavyLoop reports whether a heavy loop of the current body
// assigns v or an element or field of it.
func (c *checker) filledByHeavyLoop(v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(c.cur.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			return true
		}
		fills := false
		ast.Inspect(n, func(m ast.Node) bool {
			as, ok := m.(*ast.AssignStmt)
			if !ok {
				return !fills
			}
			for _, l := range as.Lhs {
				if id := rootIdent(l); id != nil && info.ObjectOf(id) == v {
					fills = true
				}
			}
			return !fills
		})
		// An encoder then walks the data at well above the cost of a
		// store per element, so data built with encodedWork units counts.
		if fills && c.loopReaches(n.(ast.Stmt), encodedWork) {
			found = true
		}
		return !found
	})
	return found
}

// rootIdent returns x in x, x[i], x.f and combinations of them.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// heavyLoop reports whether loop builds enough data to matter: its trip
// count times the weight of one trip reaches loopWork, or, when the trip
// count is unknown (a range over a data set of unknown size), one trip
// calls the package under test or does I/O.
func (c *checker) heavyLoop(loop ast.Stmt) bool {
	return c.loopReaches(loop, loopWork)
}

// loopReaches reports whether loop's trip count times the weight of one
// trip reaches work (see heavyLoop).
func (c *checker) loopReaches(loop ast.Stmt, work int64) bool {
	w := c.tripWeight(loopBody(loop))
	if w == 0 {
		return false
	}
	trips, ok := c.trips(loop)
	if !ok {
		return w >= weightCall
	}
	return trips >= work/w
}

func loopBody(loop ast.Stmt) *ast.BlockStmt {
	switch loop := loop.(type) {
	case *ast.ForStmt:
		return loop.Body
	case *ast.RangeStmt:
		return loop.Body
	}
	return nil
}

// Weights of one trip of a loop, in units of a store into a slice or map
// (a few nanoseconds), and the work from which a loop counts as
// expensive: about 1 to 10 ms, 1% of go test's default 1 s benchtime. A
// tenth of that (10,000 map inserts before a loop over the same map,
// orcaman/concurrent-map) changed no result measurably in A/B runs.
// Data an encoder then walks (json.Marshal of a map the loop built) counts
// from encodedWork: encoding costs well above a store per element.
const (
	weightStore = 1    // an index store, append, copy, allocation, random number
	weightCall  = 10   // a call into the package under test, a buffer write
	weightIO    = 1000 // I/O, encoding, starting a goroutine
	loopWork    = 1_000_000
	encodedWork = 100_000
)

// tripWeight returns the weight of one trip through body: the heaviest
// data-building step in it, a nested loop counting its own trips; 0 if the
// body builds nothing (a lookup in a table).
func (c *checker) tripWeight(body *ast.BlockStmt) int64 {
	if body == nil {
		return 0
	}
	info := c.pass.TypesInfo
	var w int64
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			w = max(w, weightIO)
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			inner := c.tripWeight(loopBody(n.(ast.Stmt)))
			if trips, ok := c.trips(n.(ast.Stmt)); ok && inner > 0 {
				inner = min(inner*max(trips, 1), loopWork)
			}
			w = max(w, inner)
			return false
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if _, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
					w = max(w, weightStore)
				}
			}
		case *ast.IncDecStmt:
			if _, ok := ast.Unparen(n.X).(*ast.IndexExpr); ok {
				w = max(w, weightStore)
			}
		case *ast.CompositeLit:
			if isSliceOrMap(info.TypeOf(n)) {
				w = max(w, weightStore)
			}
		case *ast.CallExpr:
			switch fn := typeutil.Callee(info, n).(type) {
			case *types.Builtin:
				switch fn.Name() {
				case "append", "copy", "make", "new":
					w = max(w, weightStore)
				}
			case *types.Func:
				switch {
				case isIO(fn):
					w = max(w, weightIO)
				case benchfn.UnderTest(c.pass, fn.Pkg()) || isBufferWrite(fn):
					w = max(w, weightCall)
				case isRand(fn):
					w = max(w, weightStore)
				}
			}
		}
		return true
	})
	return w
}

// trips bounds the number of trips of loop: for i := 0; i < n; ... with n
// bounded, range over an integer, a literal, an array or a slice made with
// a bounded length.
func (c *checker) trips(loop ast.Stmt) (int64, bool) {
	info := c.pass.TypesInfo
	switch loop := loop.(type) {
	case *ast.ForStmt:
		cond, ok := ast.Unparen(loop.Cond).(*ast.BinaryExpr)
		if !ok {
			return 0, false
		}
		switch cond.Op {
		case token.LSS, token.LEQ, token.NEQ:
			return c.sizes.eval(cond.Y, 0)
		case token.GTR, token.GEQ:
			// for i := n; i > 0; i--
			as, ok := loop.Init.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 {
				return 0, false
			}
			return c.sizes.eval(as.Rhs[0], 0)
		}
	case *ast.RangeStmt:
		if n, ok := c.sizes.eval(loop.X, 0); ok {
			if t := info.TypeOf(loop.X); t != nil {
				if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
					return n, true // range over an integer
				}
			}
		}
		if n, ok := c.sizes.length(loop.X, 0); ok {
			return n, true
		}
		if t := info.TypeOf(loop.X); t != nil {
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			if a, ok := t.Underlying().(*types.Array); ok {
				return a.Len(), true
			}
		}
	}
	return 0, false
}

func (c *checker) sizeof(t types.Type) int64 {
	if t == nil || source.HasTypeParam(t) {
		// The size of a type that depends on a type parameter is
		// unknown until instantiation (and types.Sizes panics on it).
		return 0
	}
	sizes := c.pass.TypesSizes
	if sizes == nil {
		sizes = types.SizesFor("gc", "amd64")
	}
	return sizes.Sizeof(t)
}

func isSliceOrMap(t types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// countElts counts the elements of lit, those of nested literals included.
func countElts(lit *ast.CompositeLit) int {
	n := 0
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		if inner, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
			n += max(countElts(inner), 1)
		} else {
			n++
		}
	}
	return n
}

// ioFuncs are the standard library functions and methods, by
// types.Func.FullName, that read or write files, talk to the network, run
// processes, or generate keys.
var ioFuncs = setOf(
	"os.Open", "os.OpenFile", "os.Create", "os.CreateTemp", "os.MkdirTemp",
	"os.Mkdir", "os.MkdirAll", "os.ReadFile", "os.WriteFile", "os.ReadDir",
	"os.Remove", "os.RemoveAll", "os.Rename", "os.Stat", "os.Lstat",
	"os.Truncate", "os.Link", "os.Symlink", "os.Readlink", "os.CopyFS",
	"os.Pipe", "os.StartProcess",
	"(*os.File).Read", "(*os.File).ReadAt", "(*os.File).Write",
	"(*os.File).WriteAt", "(*os.File).WriteString", "(*os.File).ReadFrom",
	"(*os.File).WriteTo", "(*os.File).ReadDir", "(*os.File).Readdir",
	"(*os.File).Readdirnames", "(*os.File).Seek", "(*os.File).Sync",
	"(*os.File).Truncate", "(*os.File).Stat",
	"(*os/exec.Cmd).Run", "(*os/exec.Cmd).Output",
	"(*os/exec.Cmd).CombinedOutput", "(*os/exec.Cmd).Start",
	"io.ReadAll", "io.Copy", "io.CopyN", "io.CopyBuffer", "io.ReadFull",
	"io.ReadAtLeast", "io.WriteString",
	"io/ioutil.ReadAll", "io/ioutil.ReadFile", "io/ioutil.WriteFile",
	"io/ioutil.ReadDir", "io/ioutil.TempFile", "io/ioutil.TempDir",
	"io/fs.ReadFile", "io/fs.ReadDir", "io/fs.WalkDir", "io/fs.Glob",
	"path/filepath.Walk", "path/filepath.WalkDir", "path/filepath.Glob",
	"(*bufio.Reader).Read", "(*bufio.Reader).ReadByte",
	"(*bufio.Reader).ReadBytes", "(*bufio.Reader).ReadLine",
	"(*bufio.Reader).ReadRune", "(*bufio.Reader).ReadSlice",
	"(*bufio.Reader).ReadString", "(*bufio.Reader).WriteTo",
	"(*bufio.Scanner).Scan",
	"(*bufio.Writer).Write", "(*bufio.Writer).WriteByte",
	"(*bufio.Writer).WriteRune", "(*bufio.Writer).WriteString",
	"(*bufio.Writer).ReadFrom", "(*bufio.Writer).Flush",
	"net.Dial", "net.DialTimeout", "net.Listen", "net.ListenPacket",
	"net/http.Get", "net/http.Post", "net/http.Head",
	"(*net/http.Client).Do", "(*net/http.Client).Get", "(*net/http.Client).Post",
	"net/http/httptest.NewServer", "net/http/httptest.NewTLSServer",
	"crypto/rsa.GenerateKey", "crypto/rsa.GenerateMultiPrimeKey",
	"crypto/ecdsa.GenerateKey", "crypto/ed25519.GenerateKey",
	"(crypto/ecdh.Curve).GenerateKey",
	"crypto/rand.Read", "crypto/rand.Int", "crypto/rand.Prime",
)

// isIO reports whether fn does I/O or costly encoding work: a function of
// ioFuncs, a Read, Write, Flush or Close method in compress/..., or a
// marshalling, encoding or decoding function or method of encoding/...
// (isEncoding).
func isIO(fn *types.Func) bool {
	if ioFuncs[fn.FullName()] || isEncoding(fn) {
		return true
	}
	if fn.Pkg() == nil {
		return false
	}
	path, name := fn.Pkg().Path(), fn.Name()
	if strings.HasPrefix(path, "compress/") {
		// Compressing or decompressing through a reader or writer; the
		// constructors only allocate state.
		if fn.Signature().Recv() == nil {
			return false
		}
		switch name {
		case "Read", "Write", "Flush", "Close":
			return true
		}
	}
	return false
}

// isEncoding reports whether fn is a marshalling, encoding or decoding
// function or method of encoding/....
func isEncoding(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	path, name := fn.Pkg().Path(), fn.Name()
	switch {
	case strings.HasPrefix(path, "encoding/"):
		if strings.HasSuffix(name, "Len") {
			return false // EncodedLen, DecodedLen: arithmetic
		}
		for _, p := range []string{"Marshal", "Unmarshal", "Encode", "Decode"} {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		switch name {
		case "ReadAll", "WriteAll", "Indent", "Compact":
			return true
		}
	}
	return false
}

// isRand reports whether fn belongs to a random number package: in a loop,
// it generates input data.
func isRand(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "math/rand", "math/rand/v2", "crypto/rand":
		return true
	}
	return false
}

// isBufferWrite reports whether fn is a method of *bytes.Buffer or
// *strings.Builder, which in a loop builds an input.
func isBufferWrite(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
	case "bytes.Buffer", "strings.Builder":
		return true
	}
	return false
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
