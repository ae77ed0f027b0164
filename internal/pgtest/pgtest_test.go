package pgtest

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

func TestWithDatabase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres:///mbench?host=/tmp/d&user=postgres", "postgres:///t1?host=%2Ftmp%2Fd&user=postgres"},
		{"postgres://u:p@h:5432/db?sslmode=disable", "postgres://u:p@h:5432/t1?sslmode=disable"},
		{"postgres://h/?dbname=x", "postgres://h/t1"},
	} {
		got, err := WithDatabase(tc.in, "t1")
		if err != nil || got != tc.want {
			t.Errorf("WithDatabase(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestDSN checks that each test gets a database of its own, empty, and
// that it is dropped when the test ends.
func TestDSN(t *testing.T) {
	var first string
	t.Run("a", func(t *testing.T) {
		first = DSN(t)
		if err := Exec(first, "CREATE TABLE t (x BIGINT)"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("b", func(t *testing.T) {
		second := DSN(t)
		if second == first {
			t.Errorf("two tests got the same database %s", first)
		}
		if err := Exec(second, "CREATE TABLE t (x BIGINT)"); err != nil {
			t.Errorf("the second test's database is not empty: %v", err)
		}
	})
	if first == "" {
		t.Skip("no server")
	}
	if err := Exec(first, "SELECT 1"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("the first test's database is still there after it ended: err = %v", err)
	}
}

// TestServerPrivate checks that the server the script starts, whose
// superuser needs no password, takes connections from this user only:
// another user of the machine could otherwise run programs as the server.
func TestServerPrivate(t *testing.T) {
	u := Server(t)
	if !server.started {
		t.Skipf("%s names a server this test did not start", EnvVar)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var perm string
	if err := conn.QueryRow(ctx, "SHOW unix_socket_permissions").Scan(&perm); err != nil {
		t.Fatal(err)
	}
	if perm != "0700" {
		t.Errorf("unix_socket_permissions = %s, want 0700", perm)
	}
}
