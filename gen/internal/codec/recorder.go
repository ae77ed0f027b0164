package codec

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// RecordDirEnv names the environment variable holding the directory a
// Recorder writes to, when its Dir is empty.
const RecordDirEnv = "MBENCH_RECORD_DIR"

// A Recorder keeps the first Max distinct input sets of one segment, as
// the segment runs in the package's tests: Begin encodes the inputs when
// the segment starts, so that the segment's own changes do not reach
// them, and End the outputs when it ends. Sets are distinct by their
// encoded inputs. A Recorder is safe for concurrent use.
//
// An execution holding a value that cannot be encoded (a non-nil error,
// say) is skipped: its set is not kept, and does not take the place of
// another; it counts among the executions MaxCalls bounds, and its inputs
// are not examined again.
//
// Under DIR/NAME it writes "reached" when the segment first starts, each
// complete set as set-N.json ({"exit":K,"inputs":[values],"outputs":[values]},
// "exit" left out when K is 0; N
// counting from 1 in the order the executions began, with gaps where
// sets were skipped), written to a temporary name and renamed, so that a
// test binary that crashes keeps every set completed before; "error"
// with the first value that could not be encoded ("input 0: ..." or
// "output 1: ...", numbering the values from 0), and "skipped" with the
// number of executions skipped so far.
type Recorder struct {
	Name string
	Dir  string // "" means $MBENCH_RECORD_DIR

	// Max is how many distinct sets to keep; MaxCalls bounds the
	// executions examined, so that a segment run millions of times on
	// the same inputs costs the tests little.
	Max, MaxCalls int

	mu      sync.Mutex
	seen    map[string]bool
	calls   int
	kept    int // sets kept or being recorded
	next    int // number of the last set begun
	skipped int
	done    int32 // 1 when done, read and written atomically (atomic.Bool is Go 1.19)
	reached sync.Once
	failed  sync.Once
}

// A Call is one execution of a segment being recorded.
type Call struct {
	r      *Recorder
	n      int
	inputs [][]byte
}

// Active reports whether r still examines executions; the instrumented
// code asks first, so that a segment run a million times does not box
// its inputs a million times.
func (r *Recorder) Active() bool { return atomic.LoadInt32(&r.done) == 0 }

// Recording reports whether c is an execution whose set is kept.
func (c *Call) Recording() bool { return c.r != nil }

// Begin records that the segment starts with the given inputs, and
// returns the Call to end; a zero Call when the set is not kept.
func (r *Recorder) Begin(inputs ...any) Call {
	if atomic.LoadInt32(&r.done) != 0 {
		return Call{}
	}
	r.reached.Do(func() { r.write("reached", nil) })
	enc := make([][]byte, len(inputs))
	var key []byte
	for i, v := range inputs {
		b, err := encodeArg(v)
		if err != nil {
			r.skip("input "+strconv.Itoa(i)+": "+err.Error(), false)
			return Call{}
		}
		enc[i] = b
		key = strconv.AppendInt(key, int64(len(b)), 10)
		key = append(key, ':')
		key = append(key, b...)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.kept >= r.Max || r.MaxCalls > 0 && r.calls > r.MaxCalls {
		atomic.StoreInt32(&r.done, 1)
		return Call{}
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[string(key)] {
		return Call{}
	}
	r.seen[string(key)] = true
	r.kept++
	r.next++
	return Call{r: r, n: r.next, inputs: enc}
}

// End records the outputs of the execution c began, and clears c: a
// goto back over Begin must not end the same execution twice.
func (c *Call) End(outputs ...any) { c.Exit(0, outputs...) }

// Exit records that the execution c began left the segment by its exit
// code (0 is its end) with the outputs, and clears c, as End.
func (c *Call) Exit(code int, outputs ...any) {
	if c.r == nil {
		return
	}
	defer func() { *c = Call{} }()
	b := []byte(`{`)
	if code != 0 {
		b = append(b, `"exit":`...)
		b = strconv.AppendInt(b, int64(code), 10)
		b = append(b, ',')
	}
	b = append(b, `"inputs":[`...)
	for i, in := range c.inputs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, in...)
	}
	b = append(b, `],"outputs":[`...)
	for i, v := range outputs {
		enc, err := encodeArg(v)
		if err != nil {
			c.r.skip("output "+strconv.Itoa(i)+": "+err.Error(), true)
			return
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, enc...)
	}
	b = append(b, "]}\n"...)
	c.r.write("set-"+strconv.Itoa(c.n)+".json", b)
}

// skip counts an execution whose set is dropped because of the value msg
// describes; began says whether Begin kept the set, whose place is then
// free again.
func (r *Recorder) skip(msg string, began bool) {
	r.failed.Do(func() { r.write("error", []byte(msg)) })
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipped++
	if began {
		r.kept--
	} else {
		r.calls++
	}
	limit := r.MaxCalls > 0 && r.calls >= r.MaxCalls
	if limit || r.kept >= r.Max {
		atomic.StoreInt32(&r.done, 1)
	} else {
		atomic.StoreInt32(&r.done, 0)
	}
	r.write("skipped", strconv.AppendInt(nil, int64(r.skipped), 10))
}

// write writes a file under DIR/NAME through a temporary name. Errors are
// dropped: recording must not change what the tests do, and a missing
// file shows as a segment without sets.
func (r *Recorder) write(name string, data []byte) {
	dir := r.Dir
	if dir == "" {
		dir = os.Getenv(RecordDirEnv)
	}
	if dir == "" {
		return
	}
	dir = filepath.Join(dir, r.Name)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}
