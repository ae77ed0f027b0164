package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// isPostgres reports whether dsn names a PostgreSQL store rather than an
// SQLite file: a postgres:// or postgresql:// URL, or a keyword/value
// connection string (keyValue).
func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") || keyValue(dsn)
}

// keyValue reports whether dsn is a libpq keyword/value connection string,
// "host=db.example dbname=bench user=ci": one that starts with a keyword
// of libpq's and '=', or with any word and '=' and holds a space, as
// settings of the server ("search_path=x") may come first. A file name
// such as "results=1.db" is neither; a file whose name begins with
// "dbname=" cannot be a store, which keeps a connection string, and the
// password in it, from ever becoming a file's name.
func keyValue(dsn string) bool {
	m := keywordRE.FindStringSubmatch(dsn)
	return m != nil && (slices.Contains(libpqKeywords, m[1]) || strings.ContainsAny(dsn, " \t\n"))
}

// keywordRE matches the first keyword of a keyword/value string.
var keywordRE = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=`)

// libpqKeywords are the keywords of libpq's connection strings
// (PostgreSQL documentation, "Connection Strings", 34.1.2 Parameter Key
// Words) that a connection string may start with.
var libpqKeywords = []string{
	"host", "hostaddr", "port", "dbname", "user", "password", "passfile",
	"require_auth", "channel_binding", "connect_timeout", "client_encoding",
	"options", "application_name", "fallback_application_name", "keepalives",
	"keepalives_idle", "keepalives_interval", "keepalives_count",
	"tcp_user_timeout", "replication", "gssencmode", "sslmode", "requiressl",
	"sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslpassword",
	"sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
	"requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version",
	"krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
	"load_balance_hosts",
}

// connectTimeout bounds the wait for a PostgreSQL server that does not
// answer, when the URL sets no connect_timeout: a store that cannot be
// reached fails Open in seconds, not after the system's TCP timeout.
const connectTimeout = 10 * time.Second

// idleInTx is how long the server lets a session of the store sit idle
// inside a transaction before it ends the session (see openPostgres).
const idleInTx = "1min"

// writeLock is the key of the transaction-level advisory lock every writing
// transaction on PostgreSQL takes first (see withTx). It is the number
// whose bytes spell "mbench\x00w".
const writeLock = 0x6d62656e63680077

// openPostgres opens the PostgreSQL store that dsn, a URL or a
// keyword/value string, names. The Store's path, which its messages name,
// is the server and database without the password.
func openPostgres(dsn string, readOnly bool) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %v", Redact(dsn), unwrapParse(err))
	}
	name := serverName(cfg)
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		cfg.RuntimeParams["application_name"] = "mbench"
	}
	// Each commit waits for its WAL record to reach the server's disk,
	// whatever the server's or the role's default, so that an Append that
	// returned is durable, as with SQLite's synchronous=FULL.
	cfg.RuntimeParams["synchronous_commit"] = "on"
	// A writer that stops inside a transaction (its machine vanished, or
	// it was suspended) holds the write lock that every other writer
	// waits for; the server ends its session after this long, which no
	// transaction of the store comes near.
	if _, ok := cfg.RuntimeParams["idle_in_transaction_session_timeout"]; !ok {
		cfg.RuntimeParams["idle_in_transaction_session_timeout"] = idleInTx
	}
	if readOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	// The connection is not pinged before each use: a connection that
	// broke fails the next write, whatever the time since the last, and
	// the Store stops writing (see withTx) instead of carrying on, on a
	// new connection, sometimes.
	noPing := stdlib.OptionShouldPing(func(context.Context, stdlib.ShouldPingParams) bool { return false })
	db := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg, noPing)})
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ConnectTimeout+5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: cannot connect: %v", name, connectError(err))
	}
	s, err := openStore(db, name, readOnly, true)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	return s, nil
}

// serverName names the server and database of cfg for messages:
// "postgres://user@host:port/db", or "postgres:///db?host=/dir" for a unix
// socket, never with the password.
func serverName(cfg *pgx.ConnConfig) string {
	u := url.URL{Scheme: "postgres", Path: "/" + cfg.Database}
	if cfg.User != "" {
		u.User = url.User(cfg.User)
	}
	if strings.HasPrefix(cfg.Host, "/") {
		q := url.Values{"host": {cfg.Host}}
		if cfg.Port != 5432 {
			q.Set("port", strconv.Itoa(int(cfg.Port)))
		}
		u.RawQuery = q.Encode()
		u.RawQuery = strings.ReplaceAll(u.RawQuery, "%2F", "/")
	} else {
		u.Host = net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	}
	return u.String()
}

// Redact returns what Open takes, dsn, as a message or help text may show
// it: a PostgreSQL URL without its password (also one that does not
// parse), a file's path as it is.
func Redact(dsn string) string {
	if !isPostgres(dsn) {
		return dsn
	}
	if keyValue(dsn) {
		return kvPasswordRE.ReplaceAllString(dsn, "${1}xxxxx")
	}
	u, err := url.Parse(dsn)
	if err != nil {
		dsn = userinfoRE.ReplaceAllString(dsn, "${1}xxxxx@")
		return passwordRE.ReplaceAllString(dsn, "${1}xxxxx")
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// userinfoRE and passwordRE match the password of a URL that url.Parse
// rejects: after "scheme://user:" up to the '@', and the value of
// password=.
var (
	userinfoRE = regexp.MustCompile(`^([a-z]+://[^/@:]*:)[^@]*@`)
	passwordRE = regexp.MustCompile(`([?&]password=)[^&]*`)
)

// kvPasswordRE matches the password of a keyword/value string: the value
// after "password =", quoted ('a b', with \' and \\ inside) or up to the
// next space.
var kvPasswordRE = regexp.MustCompile(`((?:^|\s)password\s*=\s*)(?:'(?:[^'\\]|\\.)*'?|\S*)`)

// unwrapParse returns the reason of a pgx parse error without the URL it
// quotes.
func unwrapParse(err error) error {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) && pe.Unwrap() != nil {
		return pe.Unwrap()
	}
	return errors.New("invalid PostgreSQL connection string")
}

// connectError returns the reason a connection failed: the server's
// message for a refused login, the dial error for a server not reached.
func connectError(err error) error {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Unwrap() != nil {
		err = ce.Unwrap()
	}
	// pgx joins the errors of its attempts (with and without TLS, each
	// address of a host), which often say the same: say each once, on one
	// line.
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return errors.New(strings.Join(lines, "; "))
}

// ErrConnectionLost is wrapped by the error of a write that failed because
// the connection to a PostgreSQL server was lost. What was written before
// is committed and kept; the Store refuses further writes.
var ErrConnectionLost = errors.New("lost the connection to the store")

// connectionLost reports whether err says that the connection to the
// PostgreSQL server broke: a network error, the connection closed, or the
// server ending the session (class 08, admin or crash shutdown, a session
// idle in a transaction for too long).
func connectionLost(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || pe.Code == "25P03"
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, driver.ErrBadConn) ||
		pgconn.Timeout(err)
}

// pgRetry reports whether a PostgreSQL transaction failed in a way that
// running it again can cure: a serialization failure or a deadlock.
func pgRetry(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// pgTables lists the tables of the schema a PostgreSQL store lives in.
const pgTables = `SELECT table_name AS name FROM information_schema.tables
	WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`

// A pgConnector opens connections whose SQL is translated from the
// store's dialect (see translate).
type pgConnector struct{ driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return pgConn{conn.(*stdlib.Conn)}, nil
}

// A pgConn is a pgx connection that translates the SQL it is given. The
// methods it does not define (Close, Ping, ResetSession, CheckNamedValue,
// ...) are pgx's.
type pgConn struct{ *stdlib.Conn }

func (c pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.Conn.PrepareContext(ctx, translate(query))
	if err != nil {
		return nil, err
	}
	return pgStmt{st.(*stdlib.Stmt)}, nil
}

func (c pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, translate(query), args)
}

func (c pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return wrapRows(c.Conn.QueryContext(ctx, translate(query), args))
}

// CheckNamedValue converts an argument as database/sql does for drivers
// of plain values, and escapes strings that PostgreSQL's text cannot hold
// (see escapeText).
func (c pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return err
	}
	if s, ok := v.(string); ok {
		v = escapeText(s)
	}
	nv.Value = v
	return nil
}

// A pgStmt is a prepared statement whose rows unescape their strings.
type pgStmt struct{ *stdlib.Stmt }

func (s pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return wrapRows(s.Stmt.QueryContext(ctx, args))
}

// pgRows are rows whose strings are unescaped (see escapeText).
type pgRows struct{ *stdlib.Rows }

func wrapRows(rows driver.Rows, err error) (driver.Rows, error) {
	if err != nil {
		return nil, err
	}
	return pgRows{rows.(*stdlib.Rows)}, nil
}

func (r pgRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	for i, v := range dest {
		if s, ok := v.(string); ok && strings.HasPrefix(s, textEscape) {
			dest[i] = unescapeText(s)
		}
	}
	return err
}

// textEscape begins a string that escapeText escaped.
const textEscape = "\x01q"

// escapeText returns s as PostgreSQL's text type can hold it. Text holds
// valid UTF-8 without NUL bytes; the store keeps strings byte for byte,
// as SQLite does, so any other string (and one that begins with
// textEscape) is stored as textEscape and its Go-quoted form, which
// unescapeText reverses. Strings of go test output are nearly always
// valid UTF-8, and those are stored as they are.
func escapeText(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) && !strings.HasPrefix(s, textEscape) {
		return s
	}
	return textEscape + strconv.Quote(s)
}

// unescapeText inverts escapeText.
func unescapeText(s string) string {
	u, err := strconv.Unquote(s[len(textEscape):])
	if err != nil {
		return s // not written by escapeText
	}
	return u
}

// BeginTx begins a read-only transaction of the default isolation as
// REPEATABLE READ, so that it reads one snapshot as an SQLite transaction
// does (Load relies on it); PostgreSQL's default, READ COMMITTED, takes a
// new snapshot for each statement.
func (c pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if opts.ReadOnly && sql.IsolationLevel(opts.Isolation) == sql.LevelDefault {
		opts.Isolation = driver.IsolationLevel(sql.LevelRepeatableRead)
	}
	return c.Conn.BeginTx(ctx, opts)
}

// translate turns the store's SQL, written for SQLite, into PostgreSQL's:
// each ? placeholder becomes $1, $2, ... in order, and the type INTEGER
// becomes BIGINT, since SQLite's INTEGER holds 64 bits and PostgreSQL's
// 32. String literals, quoted identifiers and comments are left alone. The
// rest of the store's SQL is common to both (see schema.sql).
func translate(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // doubled: an escaped quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(q))
			b.WriteString(q[i:j])
			i = j
		case c == '-' && strings.HasPrefix(q[i:], "--"):
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				j = len(q) - i
			} else {
				j += 4
			}
			b.WriteString(q[i : i+j])
			i += j
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			i++
		case isIdentByte(c):
			j := i
			for j < len(q) && (isIdentByte(q[j]) || q[j] == '$') {
				j++
			}
			if w := q[i:j]; strings.EqualFold(w, "INTEGER") {
				b.WriteString("BIGINT")
			} else {
				b.WriteString(w)
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}
