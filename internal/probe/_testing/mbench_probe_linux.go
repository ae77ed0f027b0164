// This file is not part of the Go distribution. mbench
// (github.com/mbench/mbench/internal/probe) adds it to package testing for
// one build through `go test -overlay`, together with hooks in
// benchmark.go that call it.

package testing

import (
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// mbenchProbe is the probe, or nil when the environment variable
// MBENCH_PROBE is not set: every hook in benchmark.go tests it first, so
// that without the variable the binary behaves as one built without the
// probe.
//
// MBENCH_PROBE is "PEER,REPORT": two inherited file descriptors. PEER is a
// stream socket connected to the other side of a duet, the same benchmarks
// built from another version and run at the same time on another CPU.
// REPORT is a pipe to the parent process.
//
// Paired iterations. With -test.benchtime=Nx, a result line comes from
// runN(N) called by launch (a classic b.N loop, N > 1), from the b.Loop
// loop that runs N times inside run1's runN(1), or from run1's runN(1)
// itself when N is 1. Those are the runs both sides synchronise: runN(n)
// with n == N (except the "Main" benchmark that runs all others), and the
// first b.Loop call when runN did not synchronise already. run1's runN(1)
// with N > 1, which only probes the benchmark, and the runN(1) of a parent
// benchmark that calls b.Run, run unsynchronised: pairing the timed runs
// alone is what lets a classic benchmark on one side meet its b.Loop
// rewrite on the other.
//
// The barrier. Right after the timer starts, a synchronising side sends
// "R seq procs N name" to its peer and spins, polling the socket with raw
// non-blocking reads (a pinned process has GOMAXPROCS 1: no other
// goroutine may be relied on to deliver a wake-up), until the peer's
// "R" line arrives; then it restarts the timer. The side that arrives
// second is released by its own send, the first by its next poll, so the
// two timers start within a few microseconds of each other. A peer line
// that differs (another benchmark, N or GOMAXPROCS) means the two versions
// do not run the same benchmarks: both sides report it and exit, so
// nothing waits forever.
//
// The filler. A side whose timed run ends sends "D seq" and, until the
// peer's "D seq" arrives, keeps its CPU busy (Bulej et al. 2020, section 4.4): it
// runs the benchmark function again, untimed, in chunks of about
// mbenchFillChunk, polling between chunks, and restores every field of B
// the function can change, so that the reported result is the timed run's.
// A benchmark whose operation or untimed setup is long, or that has
// sub-benchmarks, is filled by spinning on the poll instead. With the
// option "idle" (MBENCH_PROBE=PEER,REPORT,idle) the side sleeps instead,
// as in the paper's original procedure.
//
// Turns. With the option "turn0" or "turn1" the two sides never run
// their timed code at the same time: after the barrier, one side runs its
// timed run while the other waits, asleep, for its "D seq", then the
// other runs while the first sleeps. Which side goes first alternates
// with seq (turn0 first at odd seq, turn1 at even), so neither version
// always runs first. The waiting side restarts its timer when its turn
// comes, on the CPU the other side's run ended on (mbenchMoveTo). Both
// processes keep their warm state between turns, and
// adjacent turns see the same phase of the machine: this is how mbench ab
// pairs the versions iteration by iteration at the benchmark's own
// GOMAXPROCS, where a duet pins each side to its own CPU.
//
// The parent receives one line per event, outside timed code: "hello"
// at start, "turn" when a side's turn starts (Turns only), "iter" after each synchronised run and its filler, "result"
// after each result line, "fail" for a benchmark function that did not
// return, and "mismatch", "peer" or "error" before the process exits
// because the two sides cannot go on (internal/probe.Parse reads them).
var mbenchProbe = mbenchProbeInit()

const (
	// mbenchFillChunk is the work per filler chunk: how late a filling
	// side may notice that the other side has finished.
	mbenchFillChunk = 200 * time.Microsecond
	// mbenchFillMaxOp and mbenchFillMaxUntimed bound the time per
	// operation and the untimed work per call of the benchmark function
	// (setup before b.ResetTimer or b.Loop) for which the function is
	// rerun as filler; beyond them a chunk cannot end promptly.
	mbenchFillMaxOp      = time.Millisecond
	mbenchFillMaxUntimed = time.Millisecond
	// mbenchFillSlowChunk ends body filling, for this and later runs of
	// the benchmark, when a chunk took this much CPU time anyway:
	// untimed work the probe could not see, such as setup timed along
	// with the operations.
	mbenchFillSlowChunk = 4 * time.Millisecond
	// mbenchSpinYield is how many polls a waiting side makes between
	// runtime.Gosched calls, which let other goroutines of the benchmark
	// run without putting the waiting goroutine to sleep.
	mbenchSpinYield = 256
)

// mbenchProbeState is the probe of one test process.
type mbenchProbeState struct {
	peer, report int
	idle         bool           // no filler: sleep until the other side is done
	turn         int            // -1, or 0 or 1: take turns, this side first at odd (0) or even (1) seq
	seq          int            // synchronised runs so far
	frames       []*mbenchFrame // runN calls in progress, innermost last
	free         []*mbenchFrame
	filling      bool
	last         *B // the B of the last synchronised run that completed
	lastSeq      int
	spinNames    map[string]bool // benchmarks whose body filler proved slow
	in           []byte          // bytes from the peer; in[r:w] are unread
	r, w         int
	out          []byte           // message to the peer, allocated ahead of timed code
	rep          []byte           // message to the parent
	gc           []metrics.Sample // the collector's cycles, read without allocating
}

// mbenchFrame is one runN call in progress.
type mbenchFrame struct {
	b        *B
	n        int
	sync     bool // synchronise when runN starts the timer
	synced   bool
	stopped  bool
	peerDone bool
	peerFail string
	peerCPU  int // the CPU the peer's run ended on (Turns), -1 if unknown
	seq      int
	ready    []byte // " procs N name\n": the barrier line after "R seq"
	entered  time.Time
	start    time.Time
	end      time.Time
	wait     time.Duration
	// cpuIDStart and cpuIDEnd are the CPUs the timing goroutine ran on
	// when the timer started and stopped; gcStart and gcEnd the garbage
	// collector's completed cycles then.
	cpuIDStart, cpuIDEnd int
	gcStart, gcEnd       uint64
	// cpuStart and cpuEnd are the process's CPU time when the timer
	// started and stopped.
	cpuStart, cpuEnd time.Duration
}

func mbenchProbeInit() *mbenchProbeState {
	v, ok := os.LookupEnv("MBENCH_PROBE")
	if !ok {
		return nil
	}
	os.Unsetenv("MBENCH_PROBE") // not for processes the benchmarks start
	var fds [2]int
	fields := strings.Split(v, ",")
	turn := -1
	if len(fields) == 3 {
		switch fields[2] {
		case "turn0":
			turn = 0
		case "turn1":
			turn = 1
		}
	}
	if len(fields) < 2 || len(fields) > 3 || len(fields) == 3 && fields[2] != "idle" && turn < 0 {
		mbenchInitFail(v)
	}
	for i := range fds {
		fd, err := strconv.Atoi(fields[i])
		if err != nil || fd < 3 {
			mbenchInitFail(v)
		}
		fds[i] = fd
	}
	p := &mbenchProbeState{
		peer:      fds[0],
		report:    fds[1],
		idle:      len(fields) == 3 && turn < 0,
		turn:      turn,
		spinNames: make(map[string]bool),
		in:        make([]byte, 1<<16),
		out:       make([]byte, 0, 4096),
		gc:        []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}},
	}
	// The first read sets up the runtime's table of metrics, which
	// allocates: not in a timed run.
	p.gcCycles()
	if err := syscall.SetNonblock(p.peer, true); err != nil {
		mbenchInitFail(v + ": " + err.Error())
	}
	syscall.CloseOnExec(p.peer)
	syscall.CloseOnExec(p.report)
	p.rep = append(p.rep[:0], "hello "...)
	p.rep = strconv.AppendInt(p.rep, int64(os.Getpid()), 10)
	p.rep = append(p.rep, ' ')
	p.rep = mbenchAffinity(p.rep)
	p.rep = append(p.rep, ' ')
	p.rep = append(p.rep, runtime.Version()...)
	p.sendReport()
	return p
}

func mbenchInitFail(v string) {
	os.Stderr.WriteString("testing: MBENCH_PROBE=" + v + ": want PEER,REPORT or PEER,REPORT,idle|turn0|turn1 (two file descriptors)\n")
	os.Exit(2)
}

// mbenchAffinity appends the CPUs the process may run on, as a comma
// list, or "?" when the kernel does not say.
func mbenchAffinity(dst []byte) []byte {
	var mask [128]uint64
	n, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask[0])))
	if errno != 0 {
		return append(dst, '?')
	}
	first := true
	for cpu := 0; cpu < int(n)*8; cpu++ {
		if mask[cpu/64]&(1<<(cpu%64)) == 0 {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = strconv.AppendInt(dst, int64(cpu), 10)
	}
	return dst
}

// top returns the innermost frame if it belongs to b.
func (p *mbenchProbeState) top(b *B) *mbenchFrame {
	if len(p.frames) == 0 {
		return nil
	}
	if f := p.frames[len(p.frames)-1]; f.b == b {
		return f
	}
	return nil
}

// enter is called by runN before it starts the timer. Everything the
// timed part of the probe needs is allocated here.
func (p *mbenchProbeState) enter(b *B, n int) {
	var f *mbenchFrame
	if k := len(p.free); k > 0 {
		f, p.free = p.free[k-1], p.free[:k-1]
	} else {
		f = new(mbenchFrame)
	}
	ready := f.ready[:0]
	*f = mbenchFrame{b: b, n: n}
	isMain := b.parent == nil && b.bstate != nil
	f.sync = !p.filling && !isMain && n > 0 && n == b.benchTime.n
	ready = append(ready, ' ')
	ready = strconv.AppendInt(ready, int64(runtime.GOMAXPROCS(0)), 10)
	ready = append(ready, ' ')
	ready = strconv.AppendInt(ready, int64(b.benchTime.n), 10)
	ready = append(ready, ' ')
	ready = append(ready, b.name...)
	f.ready = append(ready, '\n')
	if need := len(f.ready) + 32; cap(p.out) < need {
		p.out = make([]byte, 0, 2*need)
	}
	p.frames = append(p.frames, f)
	f.entered = time.Now()
}

// started is called by runN right after it starts the timer.
func (p *mbenchProbeState) started(b *B) {
	if f := p.top(b); f != nil && f.sync {
		p.barrier(b, f)
	}
}

// loopStarted is called when the first b.Loop call has reset the timer.
func (p *mbenchProbeState) loopStarted(b *B) {
	if p.filling {
		return
	}
	f := p.top(b)
	switch {
	case f == nil:
	case f.synced:
		// Synchronised at runN (N is 1): the measured part begins now.
		f.start = b.start.now
		f.cpuIDStart = mbenchCPUID()
		f.gcStart = p.gcCycles()
		f.cpuStart = mbenchProcessCPU()
	case b.benchTime.n > 0:
		p.barrier(b, f)
	}
}

// barrier waits, with the timer running, until the peer reaches the same
// point, then restarts the timer. It allocates nothing, so the
// benchmark's allocation counts are unchanged.
func (p *mbenchProbeState) barrier(b *B, f *mbenchFrame) {
	p.seq++
	f.seq, f.synced = p.seq, true
	p.out = append(p.out[:0], 'R', ' ')
	p.out = strconv.AppendInt(p.out, int64(f.seq), 10)
	p.out = append(p.out, f.ready...)
	t0 := time.Now()
	p.send(p.out)
	line := p.peerLine()
	if !bytes.Equal(line, p.out[:len(p.out)-1]) {
		p.mismatch(line)
	}
	if p.turn >= 0 && (f.seq+p.turn)%2 == 0 {
		// The other side's turn first: sleep until its run is over,
		// then move to the CPU it ran on.
		for !p.poll(f) {
			p.waitReadable()
		}
		if f.peerCPU >= 0 {
			mbenchMoveTo(f.peerCPU)
		}
	}
	if p.turn >= 0 {
		// The parent learns whose turn it is, so that it can name the
		// side that never ends its run.
		p.rep = append(p.rep[:0], "turn "...)
		p.rep = strconv.AppendInt(p.rep, int64(f.seq), 10)
		p.sendReport()
	}
	// The timer starts now: nothing of the probe's but the return
	// is timed.
	f.cpuIDStart = mbenchCPUID()
	f.gcStart = p.gcCycles()
	f.cpuStart = mbenchProcessCPU()
	now := highPrecisionTimeNow()
	f.start, f.wait = now.now, now.now.Sub(t0)
	b.start = now
}

// stopped is called when runN, or a finished b.Loop, has stopped the timer.
func (p *mbenchProbeState) stopped(b *B) {
	if p.filling {
		return
	}
	f := p.top(b)
	if f == nil || !f.synced || f.stopped {
		return
	}
	f.end = time.Now()
	f.cpuEnd = mbenchProcessCPU()
	f.cpuIDEnd = mbenchCPUID()
	f.gcEnd = p.gcCycles()
	f.stopped = true
	p.out = append(p.out[:0], 'D', ' ')
	p.out = strconv.AppendInt(p.out, int64(f.seq), 10)
	if p.turn >= 0 && f.cpuIDEnd >= 0 {
		p.out = append(p.out, ' ')
		p.out = strconv.AppendInt(p.out, int64(f.cpuIDEnd), 10)
	}
	p.out = append(p.out, '\n')
	p.send(p.out)
}

// leave is called by runN after stopped: it fills until the peer is done
// and reports the run.
func (p *mbenchProbeState) leave(b *B) {
	f := p.top(b)
	if f == nil {
		return
	}
	if f.synced {
		n, d, allocs, mem := b.N, b.duration, b.netAllocs, b.netBytes
		kind, chunks, ops, fillTime := p.fill(b, f)
		p.rep = append(p.rep[:0], "iter "...)
		p.rep = strconv.AppendInt(p.rep, int64(f.seq), 10)
		p.rep = append(p.rep, f.ready[:len(f.ready)-1]...) // procs N name
		for _, x := range [...]int64{int64(n), f.start.UnixNano(), f.end.UnixNano(), int64(d), int64(allocs), int64(mem), int64(f.wait)} {
			p.rep = append(p.rep, ' ')
			p.rep = strconv.AppendInt(p.rep, x, 10)
		}
		p.rep = append(p.rep, ' ')
		p.rep = append(p.rep, kind...)
		for _, x := range [...]int64{int64(chunks), int64(ops), int64(fillTime), int64(f.cpuEnd - f.cpuStart), int64(f.cpuIDStart), int64(f.cpuIDEnd), int64(f.gcEnd - f.gcStart)} {
			p.rep = append(p.rep, ' ')
			p.rep = strconv.AppendInt(p.rep, x, 10)
		}
		p.sendReport()
		p.last, p.lastSeq = b, f.seq
	}
	p.pop(f)
}

// abort is called when runN returns, first thing in its deferred
// function. A frame still open means the benchmark function did not
// return: FailNow, SkipNow or a panic. The peer is told, so that it stops
// filling and both stay in step, and so is the parent.
func (p *mbenchProbeState) abort(b *B) {
	f := p.top(b)
	if f == nil {
		return
	}
	p.filling = false
	reason := "aborted"
	if b.Failed() {
		reason = "failed"
	} else if b.Skipped() {
		reason = "skipped"
	}
	if f.synced {
		if !f.stopped {
			f.stopped = true
			f.end = time.Now()
			p.out = append(p.out[:0], 'F', ' ')
			p.out = strconv.AppendInt(p.out, int64(f.seq), 10)
			p.out = append(p.out, ' ')
			p.out = append(p.out, reason...)
			p.out = append(p.out, '\n')
			p.send(p.out)
		}
		for !f.peerDone {
			p.spin(f)
		}
	}
	p.rep = append(p.rep[:0], "fail "...)
	p.rep = strconv.AppendInt(p.rep, int64(f.seq), 10)
	p.rep = append(p.rep, f.ready[:len(f.ready)-1]...)
	p.rep = append(p.rep, ' ')
	p.rep = append(p.rep, reason...)
	p.sendReport()
	p.pop(f)
}

// result is called when processBench has printed a result line.
func (p *mbenchProbeState) result(b *B, r BenchmarkResult) {
	seq := 0
	if p.last == b {
		seq = p.lastSeq
	}
	p.rep = append(p.rep[:0], "result "...)
	p.rep = strconv.AppendInt(p.rep, int64(seq), 10)
	p.rep = append(p.rep, ' ')
	p.rep = strconv.AppendInt(p.rep, int64(runtime.GOMAXPROCS(0)), 10)
	p.rep = append(p.rep, ' ')
	p.rep = append(p.rep, b.name...)
	for _, x := range [...]int64{int64(r.N), int64(r.T), r.Bytes, int64(r.MemAllocs), int64(r.MemBytes)} {
		p.rep = append(p.rep, ' ')
		p.rep = strconv.AppendInt(p.rep, x, 10)
	}
	for unit, v := range r.Extra {
		p.rep = append(p.rep, ' ')
		p.rep = append(p.rep, unit...)
		p.rep = append(p.rep, '=')
		p.rep = strconv.AppendFloat(p.rep, v, 'g', -1, 64)
	}
	p.sendReport()
}

func (p *mbenchProbeState) pop(f *mbenchFrame) {
	for len(p.frames) > 0 {
		g := p.frames[len(p.frames)-1]
		p.frames = p.frames[:len(p.frames)-1]
		g.b = nil
		p.free = append(p.free, g)
		if g == f {
			return
		}
	}
}

// fill keeps the CPU busy until the peer's run f.seq is over. It returns
// how: "none" (the peer was done first), "body" (the benchmark function
// rerun) or "spin", with the chunks and operations run and the time from
// the end of this side's timed run until the peer's end was seen. That
// time is measured from f.end, not from the start of filling, so a
// preemption between the two counts too: End plus it is when the filler
// stopped.
func (p *mbenchProbeState) fill(b *B, f *mbenchFrame) (kind string, chunks, ops int, d time.Duration) {
	if p.poll(f) {
		return "none", 0, 0, 0
	}
	if p.idle || p.turn >= 0 {
		for !p.poll(f) {
			p.waitReadable()
		}
		kind = "idle"
		if p.turn >= 0 {
			kind = "turn"
		}
		return kind, 0, 0, time.Since(f.end)
	}
	body := !b.hasSub.Load() && !b.Failed() && !b.Skipped() && b.N > 0 && b.duration > 0 && !p.spinNames[b.name]
	chunk := 0
	if body {
		perOp := float64(b.duration) / float64(b.N)
		untimed := f.end.Sub(f.entered) - f.wait - b.duration
		body = perOp <= float64(mbenchFillMaxOp) && untimed <= mbenchFillMaxUntimed
		chunk = min(max(int(float64(mbenchFillChunk)/perOp), 1), b.N)
	}
	kind = "spin"
	if body {
		kind = "body"
		var slow bool
		p.filling = true
		chunks, ops, slow = b.mbenchFill(chunk, func() bool { return p.poll(f) })
		p.filling = false
		if slow {
			p.spinNames[b.name] = true
		}
	}
	for !f.peerDone {
		p.spin(f)
	}
	return kind, chunks, ops, time.Since(f.end)
}

// mbenchFill runs b's benchmark function, untimed, ops operations at a
// time, until done reports true or a call takes more CPU time than
// mbenchFillSlowChunk (slow: later fillers of the benchmark should spin). Every field of b that the function, the
// timer methods or b.Loop can change is restored, so the result of the
// timed run stands.
func (b *B) mbenchFill(ops int, done func() bool) (chunks, total int, slow bool) {
	n, loop, benchTime := b.N, b.loop, b.benchTime
	duration, start, timerOn := b.duration, b.start, b.timerOn
	startAllocs, startBytes, netAllocs, netBytes := b.startAllocs, b.startBytes, b.netAllocs, b.netBytes
	bytesPerOp, parallelism, showAlloc, hasSub := b.bytes, b.parallelism, b.showAllocResult, b.hasSub.Load()
	extra := make(map[string]float64, len(b.extra))
	for k, v := range b.extra {
		extra[k] = v
	}
	b.mu.RLock()
	outLen := len(b.output)
	b.mu.RUnlock()
	defer func() {
		b.N, b.loop, b.benchTime = n, loop, benchTime
		b.duration, b.start, b.timerOn = duration, start, timerOn
		b.startAllocs, b.startBytes, b.netAllocs, b.netBytes = startAllocs, startBytes, netAllocs, netBytes
		b.bytes, b.parallelism, b.showAllocResult = bytesPerOp, parallelism, showAlloc
		b.hasSub.Store(hasSub)
		if b.extra != nil {
			clear(b.extra)
			for k, v := range extra {
				b.extra[k] = v
			}
		}
		b.mu.Lock()
		if len(b.output) > outLen {
			b.output = b.output[:outLen]
		}
		b.mu.Unlock()
	}()
	for !done() {
		cpu0 := mbenchProcessCPU()
		b.N = ops
		b.loop.n, b.loop.i, b.loop.done = 0, 0, false
		// With a fixed count, b.Loop runs exactly benchTime.n times.
		b.benchTime = durationOrCountFlag{n: ops}
		// The timer is set running without ReadMemStats: nothing
		// reads what this chunk measures.
		b.timerOn = true
		b.start = highPrecisionTimeNow()
		b.benchFunc(b)
		b.timerOn = false
		chunks++
		total += ops
		// Long in CPU time, not only in wall time (another process
		// that had the CPU): the function does more than its
		// operations, and cannot be stopped promptly.
		if mbenchProcessCPU()-cpu0 > mbenchFillSlowChunk {
			return chunks, total, true
		}
	}
	return chunks, total, false
}

// mbenchMoveTo moves the calling thread to cpu and lets it run anywhere
// it could before: the thread's affinity is set to cpu alone, which
// migrates it there at once, then restored, which does not move it
// again. The second side of a pair in turns so starts on the CPU the
// first side's run ended on, where the kernel would wake it on an idle
// CPU, the other one: a pair then sees the same CPU, and on a machine
// whose CPUs have slow phases of their own (a shared VM) their ratio
// cancels what the CPU does. A benchmark's other threads are not
// touched, and neither is the process's affinity.
func mbenchMoveTo(cpu int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, one [16]uint64 // 1024 CPUs
	if cpu >= len(one)*64 {
		return
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(old), uintptr(unsafe.Pointer(&old[0])))
	if errno != 0 || old[cpu/64]&(1<<(cpu%64)) == 0 {
		return
	}
	one[cpu/64] = 1 << (cpu % 64)
	if _, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, n, uintptr(unsafe.Pointer(&one[0]))); errno != 0 {
		return
	}
	syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, n, uintptr(unsafe.Pointer(&old[0])))
}

// gcCycles returns the garbage collection cycles completed so far.
func (p *mbenchProbeState) gcCycles() uint64 {
	metrics.Read(p.gc)
	if p.gc[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return p.gc[0].Value.Uint64()
}

// mbenchCPUID returns the CPU the calling thread runs on, or -1 when the
// kernel does not say.
func mbenchCPUID() int {
	var nr uintptr
	switch runtime.GOARCH {
	case "amd64":
		nr = 309
	case "arm64", "riscv64", "loong64":
		nr = 168
	case "386":
		nr = 318
	default:
		return -1
	}
	var cpu uint32
	_, _, errno := syscall.RawSyscall(nr, uintptr(unsafe.Pointer(&cpu)), 0, 0)
	if errno != 0 {
		return -1
	}
	return int(cpu)
}

// mbenchProcessCPU returns the CPU time of the process, which, unlike the
// wall time, does not grow while other processes have the CPU.
func mbenchProcessCPU() time.Duration {
	var ts syscall.Timespec
	const clockProcessCPUTimeID = 2
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// poll reads what the peer sent, without waiting, and reports whether its
// run f.seq is over.
func (p *mbenchProbeState) poll(f *mbenchFrame) bool {
	if f.peerDone {
		return true
	}
	f.peerCPU = -1
	line, ok := p.tryLine()
	if !ok {
		return false
	}
	// "D seq" or "F seq reason".
	if len(line) < 2 || (line[0] != 'D' && line[0] != 'F') || line[1] != ' ' {
		p.protocol("end of run", line)
	}
	rest := line[2:]
	i := bytes.IndexByte(rest, ' ')
	if i < 0 {
		i = len(rest)
	}
	if seq, err := strconv.Atoi(string(rest[:i])); err != nil || seq != f.seq {
		p.protocol("end of run "+strconv.Itoa(f.seq), line)
	}
	if line[0] == 'F' {
		f.peerFail = string(rest[i:])
	} else if i < len(rest) {
		// "D seq cpu" from a side in turns.
		if cpu, err := strconv.Atoi(string(rest[i+1:])); err == nil {
			f.peerCPU = cpu
		}
	}
	f.peerDone = true
	return true
}

// spin polls for the end of the peer's run f.seq for a while.
func (p *mbenchProbeState) spin(f *mbenchFrame) {
	for i := 0; i < mbenchSpinYield; i++ {
		if p.poll(f) {
			return
		}
	}
	runtime.Gosched()
}

// waitReadable sleeps until the peer socket has something to read.
func (p *mbenchProbeState) waitReadable() {
	fd := struct {
		fd             int32
		events, revent int16
	}{fd: int32(p.peer), events: 0x1} // POLLIN
	_, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fd)), 1, 0, 0, 0, 0)
	if errno != 0 && errno != syscall.EINTR {
		p.die("peer", "waiting for the other side: "+errno.Error())
	}
}

// peerLine returns the next line from the peer, spinning until it arrives.
// The line is valid until the next read.
func (p *mbenchProbeState) peerLine() []byte {
	for i := 1; ; i++ {
		if line, ok := p.tryLine(); ok {
			return line
		}
		if i%mbenchSpinYield == 0 {
			runtime.Gosched()
		}
	}
}

// tryLine returns the next complete line from the peer, if there is one,
// reading what the socket holds without blocking.
func (p *mbenchProbeState) tryLine() ([]byte, bool) {
	for {
		if i := bytes.IndexByte(p.in[p.r:p.w], '\n'); i >= 0 {
			line := p.in[p.r : p.r+i]
			p.r += i + 1
			return line, true
		}
		if p.r > 0 {
			p.w = copy(p.in, p.in[p.r:p.w])
			p.r = 0
		}
		if p.w == len(p.in) {
			p.protocol("a line", p.in[:64])
		}
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(p.peer), uintptr(unsafe.Pointer(&p.in[p.w])), uintptr(len(p.in)-p.w))
		switch {
		case errno == syscall.EAGAIN || errno == syscall.EINTR:
			return nil, false
		case errno != 0:
			p.die("peer", "reading from the other side: "+errno.Error())
		case n == 0:
			p.die("peer", "the other side ended first")
		}
		p.w += int(n)
	}
}

// send writes msg to the peer, whole, without raising SIGPIPE.
func (p *mbenchProbeState) send(msg []byte) {
	for len(msg) > 0 {
		n, _, errno := syscall.RawSyscall6(syscall.SYS_SENDTO, uintptr(p.peer), uintptr(unsafe.Pointer(&msg[0])), uintptr(len(msg)), syscall.MSG_NOSIGNAL, 0, 0)
		switch {
		case errno == syscall.EAGAIN || errno == syscall.EINTR:
			continue
		case errno != 0:
			p.die("peer", "writing to the other side: "+errno.Error())
		}
		msg = msg[n:]
	}
}

// sendReport writes p.rep and a newline to the parent.
func (p *mbenchProbeState) sendReport() {
	msg := append(p.rep, '\n')
	for len(msg) > 0 {
		n, err := syscall.Write(p.report, msg)
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			os.Stderr.WriteString("testing: mbench probe: writing to the parent: " + err.Error() + "\n")
			os.Exit(1)
		}
		msg = msg[n:]
	}
	p.rep = msg[:0]
}

// mismatch ends the process: the peer is at another benchmark. The parent
// receives both barrier lines, separated by a tab.
func (p *mbenchProbeState) mismatch(peer []byte) {
	mine := string(p.out[:len(p.out)-1])
	p.dieReport("mismatch", mine+"\t"+string(peer),
		"the other side runs another benchmark: here "+mine+", there "+string(peer))
}

// protocol ends the process on a message the protocol does not allow.
func (p *mbenchProbeState) protocol(want string, got []byte) {
	p.die("error", "want "+want+" from the other side, got "+strconv.Quote(string(got)))
}

// die reports to the parent and exits: the parent ends the run.
func (p *mbenchProbeState) die(kind, msg string) { p.dieReport(kind, msg, msg) }

// dieReport sends report to the parent, msg to standard error, and exits.
func (p *mbenchProbeState) dieReport(kind, report, msg string) {
	p.rep = append(p.rep[:0], kind...)
	p.rep = append(p.rep, ' ')
	p.rep = strconv.AppendInt(p.rep, int64(p.seq), 10)
	p.rep = append(p.rep, ' ')
	p.rep = append(p.rep, report...)
	p.sendReport()
	os.Stderr.WriteString("\ntesting: mbench probe: " + msg + "\n")
	os.Exit(1)
}
