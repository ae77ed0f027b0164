package proc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary play the processes the tests start: with
// PROC_TEST_ROLE=parent it starts a child of the same role "sleeper" through
// Command (or through plain exec.Command with PROC_TEST_PLAIN=1), prints
// the child's pid and sleeps; a sleeper only sleeps.
func TestMain(m *testing.M) {
	switch os.Getenv("PROC_TEST_ROLE") {
	case "parent":
		cmd := Command(context.Background(), os.Args[0])
		if os.Getenv("PROC_TEST_PLAIN") == "1" {
			cmd = exec.Command(os.Args[0])
		}
		cmd.Env = append(os.Environ(), "PROC_TEST_ROLE=sleeper")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
		time.Sleep(time.Hour)
	case "sleeper":
		time.Sleep(time.Hour)
	default:
		os.Exit(m.Run())
	}
}

// start starts the test binary as a parent, through start, and returns it
// with the pid of the child it started.
func start(t *testing.T, cmd *exec.Cmd, plain bool) (*exec.Cmd, int) {
	t.Helper()
	cmd.Env = append(os.Environ(), "PROC_TEST_ROLE=parent")
	if plain {
		cmd.Env = append(cmd.Env, "PROC_TEST_PLAIN=1")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("reading the child's pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return cmd, pid
}

// alive reports whether pid is a process that has not ended. A killed
// process whose parent has not reaped it yet is a zombie: ended.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// ended waits for pid to end; it waits for the kernel, not for a duration
// the test guesses, and gives up only after a minute.
func ended(pid int) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return false
}

// TestCancelKillsGroup cancels a command whose process started a child:
// the child, in its process group, must end with it.
func TestCancelKillsGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd, child := start(t, Command(ctx, os.Args[0]), true)
	if !alive(child) {
		t.Fatal("the child is not running")
	}
	cancel()
	if err := cmd.Wait(); err == nil {
		t.Error("a killed command exited 0")
	}
	if !ended(child) {
		t.Errorf("the child %d survived its cancelled parent", child)
	}
}

// TestParentDeath kills a parent with SIGKILL, as when mbench is killed
// without a chance to clean up: the child it started through Command must
// die with it.
func TestParentDeath(t *testing.T) {
	cmd, child := start(t, exec.Command(os.Args[0]), false)
	cmd.Process.Kill()
	cmd.Wait()
	if !ended(child) {
		t.Errorf("the child %d survived its killed parent", child)
	}
}

// TestKillAfterWait ends the group of a command that has already been
// waited for, and is harmless when nothing of the group is left.
func TestKillAfterWait(t *testing.T) {
	cmd := Command(context.Background(), "true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := Kill(cmd); err != nil {
		t.Errorf("Kill after the group ended: %v", err)
	}
	if err := Kill(Command(context.Background(), "true")); err != nil {
		t.Errorf("Kill before Start: %v", err)
	}
}
