// Package pgtest gives tests a PostgreSQL database of their own.
//
// DSN returns the URL of a new, empty database for one test, dropped when
// the test ends. The databases live on the server that the environment
// variable MBENCH_TEST_POSTGRES names (the URL of a database on it, whose
// user may create databases), or else on a throwaway server that the
// script .ci/postgres starts on a unix socket when the first test of the
// test binary asks for one; Main stops it when the tests end. A package
// whose tests use DSN runs them through Main:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// When PostgreSQL is not installed and cannot be installed here (Script
// exits with ExitMissing), DSN skips the test, saying why; any other
// failure to start the server fails it.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Script is the script, relative to the repository's root, that starts
// and stops the test server.
const Script = ".ci/postgres"

// EnvVar names the variable that points the tests at an existing server.
const EnvVar = "MBENCH_TEST_POSTGRES"

// ExitMissing is the status with which Script exits when PostgreSQL is
// not installed and .ci/deps could not install it.
const ExitMissing = 3

var server struct {
	once    sync.Once
	url     string // of the server's maintenance database
	started bool   // by this process, through Script
	script  string
	err     error
	missing bool // Script exited with ExitMissing
}

// Main runs the tests and stops the server DSN started, if any, before it
// exits with the tests' status.
func Main(m *testing.M) {
	code := m.Run()
	if err := stop(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// Server returns the URL of a database on the test server, starting the
// server once per test binary; it skips t when PostgreSQL cannot be installed
// and fails it when the server does not start.
func Server(t testing.TB) string {
	t.Helper()
	server.once.Do(func() {
		if u := os.Getenv(EnvVar); u != "" {
			server.url = u
			return
		}
		server.script, server.err = findScript()
		if server.err != nil {
			return
		}
		cmd := exec.Command(server.script, "start")
		cmd.Dir = filepath.Dir(filepath.Dir(server.script))
		// Should this process be killed before Main stops the server,
		// the script stops it.
		cmd.Env = append(os.Environ(), fmt.Sprintf("MBENCH_POSTGRES_OWNER=%d", os.Getpid()))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			var exit *exec.ExitError
			server.missing = errors.As(err, &exit) && exit.ExitCode() == ExitMissing
			server.err = fmt.Errorf("%s start: %v\n%s", Script, err, bytes.TrimSpace(stderr.Bytes()))
			return
		}
		server.url = strings.TrimSpace(string(out))
		server.started = true
	})
	switch {
	case server.missing:
		t.Skipf("no PostgreSQL server for the test (%v): install PostgreSQL (.ci/deps postgresql), or set %s to the URL of a database whose user may create databases", server.err, EnvVar)
	case server.err != nil:
		t.Fatalf("pgtest: %v", server.err)
	}
	return server.url
}

// stop stops the server Server started.
func stop() error {
	if !server.started {
		return nil
	}
	server.started = false
	out, err := exec.Command(server.script, "stop", server.url).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s stop: %v\n%s", Script, err, out)
	}
	return nil
}

var seq atomic.Int64

// DSN returns the URL of a new, empty database on the test server for t,
// which is dropped when t ends. It skips or fails t as Server does.
func DSN(t testing.TB) string {
	t.Helper()
	base := Server(t)
	name := fmt.Sprintf("mbench_test_%d_%d", os.Getpid(), seq.Add(1))
	if err := exec1(base, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: creating database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := exec1(base, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: dropping database %s: %v", name, err)
		}
	})
	u, err := WithDatabase(base, name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// WithDatabase returns the URL u with its database replaced by db.
func WithDatabase(u, db string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("pgtest: %s is not a URL: %v", EnvVar, err)
	}
	p.Path = "/" + db
	q := p.Query()
	q.Del("dbname")
	p.RawQuery = q.Encode()
	return p.String(), nil
}

// Exec runs the statement sql on the database the URL u names, on a
// connection of its own.
func Exec(u, sql string) error { return exec1(u, sql) }

func exec1(u, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// findScript finds Script in the working directory or the closest of its
// parents that has it: a test runs in its package's directory, in the
// repository.
func findScript() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, Script)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no " + Script + " in the working directory or above it")
		}
		dir = parent
	}
}
