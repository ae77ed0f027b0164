package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultNoiseTime is how long mbench doctor -noise measures: long enough
// to see slow phases of a second several times on every CPU, short enough
// to ask of a user.
const DefaultNoiseTime = 8 * time.Second

// MaxNoiseTime bounds a noise measurement, whose traces take 16 bytes per
// millisecond on every CPU.
const MaxNoiseTime = 10 * time.Minute

// NoiseFile is the name of the file, beside the result database, in which
// mbench doctor -noise keeps the machine's noise.
const NoiseFile = "noise.json"

// noiseChunk is the time of one chunk of work on a quiet CPU: short against
// the slow phases to be seen (100 ms and longer), long against the cost of
// reading the clock (tens of nanoseconds) and a timer interrupt.
const noiseChunk = time.Millisecond

// MeasureNoise measures the interference on each CPU the process may run
// on, for d, and analyses it as AnalyzeNoise does.
//
// Each CPU gets a goroutine locked to a thread pinned to it, and all of
// them run the same fixed chunk of work back to back, at once, recording
// when each chunk started and how long it took, until d has passed. The
// chunk is pure computation (a xorshift generator, no memory traffic),
// calibrated once to about 1 ms on the fastest of a few tries, so that it
// takes the same time on an undisturbed CPU whenever it runs. Running the
// CPUs at once is what shows whether they slow down together.
//
// Every goroutine must run at once, so MeasureNoise raises GOMAXPROCS to
// the number of CPUs while it measures, if it is lower. It returns
// ctx.Err() when ctx ends the measurement early.
func MeasureNoise(ctx context.Context, d time.Duration) (*Noise, error) {
	if d <= 0 || d > MaxNoiseTime {
		return nil, fmt.Errorf("noise: measuring time %v: want a duration above 0 and at most %v", d, MaxNoiseTime)
	}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("noise: reading CPU affinity: %v", err)
	}
	var cpus []int
	for c := range maxCPUs {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	if len(cpus) == 0 {
		return nil, errors.New("noise: the process may run on no CPU")
	}
	if old := runtime.GOMAXPROCS(0); old < len(cpus) {
		runtime.GOMAXPROCS(len(cpus))
		defer runtime.GOMAXPROCS(old)
	}
	work := calibrateNoise()

	traces := make([]CPUTrace, len(cpus))
	errs := make([]error, len(cpus))
	var pinned, done sync.WaitGroup
	var abort atomic.Bool
	start := make(chan struct{})
	var t0 time.Time // written before start is closed
	for i, cpu := range cpus {
		pinned.Add(1)
		done.Go(func() {
			// The thread stays locked: when the goroutine returns,
			// the runtime ends the thread, pinned as it is, rather
			// than give it to other goroutines.
			runtime.LockOSThread()
			var one unix.CPUSet
			one.Set(cpu)
			if err := unix.SchedSetaffinity(unix.Gettid(), &one); err != nil {
				errs[i] = fmt.Errorf("noise: pinning to CPU %d: %v", cpu, err)
			}
			pinned.Done()
			<-start
			if abort.Load() {
				return
			}
			traces[i] = CPUTrace{CPU: cpu, Chunks: spinChunks(ctx, work, t0, d)}
		})
	}
	pinned.Wait()
	if err := errors.Join(errs...); err != nil {
		abort.Store(true)
		close(start)
		done.Wait()
		return nil, err
	}
	t0 = time.Now()
	close(start)
	done.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := AnalyzeNoise(traces)
	n.Start, n.Work = t0, work
	return n, nil
}

// spinChunks runs chunks of work steps until d has passed since t0 or ctx
// ends, at least one.
func spinChunks(ctx context.Context, work int, t0 time.Time, d time.Duration) []Chunk {
	// Room for twice the chunks of a quiet CPU, so that appending
	// seldom allocates while the others measure.
	chunks := make([]Chunk, 0, min(2*int(d/noiseChunk)+16, 1<<16))
	x := uint64(0x9e3779b97f4a7c15)
	for {
		s := time.Now()
		x = noiseWork(work, x)
		e := time.Now()
		chunks = append(chunks, Chunk{Start: s.Sub(t0), Time: e.Sub(s)})
		if e.Sub(t0) >= d || ctx.Err() != nil {
			break
		}
	}
	noiseSink.Add(x)
	return chunks
}

// noiseSink takes the result of the work, so that the compiler cannot drop
// the work as dead code.
var noiseSink atomic.Uint64

// noiseWork runs n steps of a xorshift generator (Marsaglia, "Xorshift
// RNGs", Journal of Statistical Software 8(14), 2003) from x: a chain of
// dependent register operations, the same work for any x, with no memory
// traffic that a neighbour's cache use could slow.
//
//go:noinline
func noiseWork(n int, x uint64) uint64 {
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// calibrateNoise returns the steps of noiseWork that take noiseChunk on
// the fastest of a few tries: a slow spell during calibration would
// otherwise make every chunk shorter than meant.
func calibrateNoise() int {
	n := 1 << 10
	var t time.Duration
	for {
		t = fastest(n)
		if t >= noiseChunk/4 || n >= 1<<30 {
			break
		}
		n *= 2
	}
	n = int(float64(n) * float64(noiseChunk) / float64(max(t, 1)))
	n = max(1, n)
	if t := fastest(n); t > 0 {
		n = max(1, int(float64(n)*float64(noiseChunk)/float64(t)))
	}
	return n
}

// fastest returns the shortest time of 5 runs of n steps of noiseWork.
func fastest(n int) time.Duration {
	best := time.Duration(math.MaxInt64)
	for range 5 {
		s := time.Now()
		noiseSink.Add(noiseWork(n, uint64(n)|1))
		best = min(best, time.Since(s))
	}
	return best
}

// SaveNoise keeps n in dir/noise.json, without its traces, creating dir.
// The file is written aside and renamed into place, so a reader finds the
// previous noise or this one, whole.
func SaveNoise(dir string, n *Noise) error {
	if n == nil {
		return errors.New("noise: nothing to save")
	}
	kept := *n
	kept.Traces = nil
	b, err := json.MarshalIndent(&kept, "", "\t")
	if err != nil {
		return fmt.Errorf("noise: %v", err)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+NoiseFile+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // fails once renamed
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, NoiseFile))
	}
	return err
}

// LoadNoise reads the noise SaveNoise kept in dir, and returns nil, with
// no error, when there is none. Its Start says when it was measured.
func LoadNoise(dir string) (*Noise, error) {
	path := filepath.Join(dir, NoiseFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var n Noise
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("%s: %v (mbench doctor -noise writes it again)", path, err)
	}
	return &n, nil
}
