// Package browser opens an HTML file in headless Chromium, offline, and
// tells what a person looking at it would see: the errors in the console,
// the requests the page tried to make, the ids of its elements and the size
// of each of its SVG figures. It is for tests of the HTML that mbench
// writes, which must open from a file with nothing else: a test calls
// [OpenForTest], then looks at the [Page]. A test that looks closer, at
// how the page is laid out for a window of some size, calls
// [OpenWithForTest] with a function that gets the open [Tab]: it runs
// scripts in the page, resizes the viewport and takes screenshots.
//
// [Open] starts a fresh browser for each file, with a temporary profile,
// and stops it, with every process it started, before it returns. Every
// request other than the file itself is recorded and blocked before it
// leaves the browser, and host names resolve to nothing, so a page that
// would fetch a script, a style sheet or an image from elsewhere is caught
// and never reaches the network.
//
// Chromium is found as $MBENCH_CHROME, chromium, chromium-browser or
// google-chrome; the script .ci/deps installs it (see docs/testing.md).
package browser

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// A Page is what the browser showed of a file once it had loaded.
type Page struct {
	// URL is the file:// URL that was loaded.
	URL string

	// Title is the document's title.
	Title string

	// IDs are the ids of the elements that have one, in document order.
	IDs []string

	// SVGs are the page's outermost <svg> elements, in document order.
	// An <svg> inside another is part of that figure and not listed.
	SVGs []SVG

	// Errors are the console messages of level error (console.error, a
	// failed console.assert, the browser's own error log, such as a
	// resource that failed to load) and the uncaught exceptions and
	// unhandled promise rejections, in the order they happened, each as
	// "type: text (url:line)".
	Errors []string

	// Requests are the URLs the page requested other than the file itself,
	// each once, in the order first requested. Each one was blocked. Data
	// and blob URLs, whose content is in the page, are not requests.
	Requests []string
}

// An SVG is one <svg> element as laid out in the page.
type SVG struct {
	// Section is the id of the closest enclosing <section> that has an
	// id, or "" if there is none.
	Section string

	// Label names the figure in messages: the element's id, else its
	// aria-label, else the text of its first <title>.
	Label string

	// Width and Height are the size of its bounding box in CSS pixels;
	// both are 0 for a figure that is not displayed.
	Width, Height float64
}

// HasID reports whether some element of the page has the id.
func (p *Page) HasID(id string) bool {
	for _, x := range p.IDs {
		if x == id {
			return true
		}
	}
	return false
}

// SVGsIn returns the figures whose closest section with an id has the id
// section.
func (p *Page) SVGsIn(section string) []SVG {
	var in []SVG
	for _, s := range p.SVGs {
		if s.Section == section {
			in = append(in, s)
		}
	}
	return in
}

// Check returns what is wrong with the page for a reader who has it as a
// single file and no network: each console error and exception, each
// request, each section of sections that is missing, and each figure,
// anywhere in the page, that has no area. It returns nil for a page with
// none of these.
func (p *Page) Check(sections ...string) []string {
	var problems []string
	for _, e := range p.Errors {
		problems = append(problems, "console: "+e)
	}
	for _, r := range p.Requests {
		problems = append(problems, "request to "+r)
	}
	for _, id := range sections {
		if !p.HasID(id) {
			problems = append(problems, fmt.Sprintf("no element with id %q", id))
		}
	}
	for i, s := range p.SVGs {
		if s.Width <= 0 || s.Height <= 0 {
			problems = append(problems, fmt.Sprintf("svg %d %q in section %q is %gx%g", i, s.Label, s.Section, s.Width, s.Height))
		}
	}
	return problems
}

// offline holds the two ways [Open] keeps a page off the network, each
// enough on its own; a test turns one off to check the other.
var offline = struct {
	intercept      bool // pause every request and fail those not for the file
	resolveNothing bool // map every host to "not found"
}{true, true}

// DefaultTimeout bounds [Open] when its context has no deadline.
const DefaultTimeout = 2 * time.Minute

// ErrNoChromium is returned by [Find] and [Open] when no browser is found.
var ErrNoChromium = errors.New("no Chromium found: install it with .ci/deps chromium, or set MBENCH_CHROME to a Chrome or Chromium binary")

// Names are the commands [Find] looks for on $PATH, in order, after
// $MBENCH_CHROME.
var Names = []string{"chromium", "chromium-browser", "google-chrome"}

// Find returns the path of the browser [Open] uses: $MBENCH_CHROME if set,
// else the first of [Names] on $PATH. It returns an error wrapping
// [ErrNoChromium] if there is none.
func Find() (string, error) {
	if env := os.Getenv("MBENCH_CHROME"); env != "" {
		path, err := exec.LookPath(env)
		if err != nil {
			return "", fmt.Errorf("MBENCH_CHROME: %w (%w)", err, ErrNoChromium)
		}
		return path, nil
	}
	for _, name := range Names {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", ErrNoChromium
}

// Open loads the HTML file at path in a new headless Chromium with no
// network, waits for its load event, and returns what the page showed.
// The browser and all its processes have exited, and its temporary
// profile is removed, when Open returns. Without a deadline in ctx, Open
// gives up after [DefaultTimeout].
func Open(ctx context.Context, path string) (*Page, error) {
	return OpenWith(ctx, path, nil)
}

// OpenWith is [Open] for a caller that looks closer: once the page has
// loaded and been read, and before the browser stops, it calls look (when
// not nil) with the open [Tab], through which the caller measures what is
// laid out and takes screenshots. An error from look is OpenWith's.
func OpenWith(ctx context.Context, path string, look func(*Tab) error) (*Page, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	exe, err := Find()
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	// Chromium keeps its shared memory in files in $TMPDIR and leaves them
	// there when it is killed: give it a directory of its own to remove.
	tmp, err := os.MkdirTemp("", "mbench-browser-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Env("TMPDIR="+tmp),
		chromedp.WindowSize(1280, 1024),
	)
	if offline.resolveNothing {
		// A second line of defence behind the interception of requests:
		// no host name or address resolves, so nothing the interception
		// might miss (a DNS prefetch, say) leaves the machine.
		opts = append(opts, chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"))
	}
	// The allocator makes a temporary profile and runs Chromium as root
	// with --no-sandbox, which Chromium requires there. Cancelling it kills
	// whatever of the browser is left, waits for it and removes the
	// profile, before tmp is removed.
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	// The page's errors are in the Page; chromedp's own, such as one for
	// an event that came as the browser stopped, are not the caller's.
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithErrorf(func(string, ...any) {}))
	defer cancelBrowser()

	page, err := load(bctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String())
	if err != nil {
		return nil, fmt.Errorf("opening %s in %s: %w", path, exe, err)
	}
	if look != nil {
		if err := look(&Tab{ctx: bctx}); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	// Close the browser politely first; the deferred cancellations stop
	// it, and wait for it, whatever happens here.
	if err := chromedp.Cancel(bctx); err != nil && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("closing %s: %w", exe, err)
	}
	return page, nil
}

// load starts the browser of ctx, loads pageURL in it and reads the page.
func load(ctx context.Context, pageURL string) (*Page, error) {
	// Start the browser and open its tab, with the Runtime, Log, Network
	// and Page domains enabled.
	if err := chromedp.Do(ctx); err != nil {
		return nil, err
	}
	p := &Page{URL: pageURL}

	var (
		mu       sync.Mutex
		seen     = map[string]bool{}
		requests []string
	)
	// local reports whether a URL is the file itself or has its content
	// in the page.
	local := func(u string) bool {
		return u == pageURL || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "blob:")
	}
	request := func(u string) {
		if local(u) {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !seen[u] {
			seen[u] = true
			requests = append(requests, u)
		}
	}
	// Listen calls its function in the order events arrive and before
	// the reply to any later command, so every request made before the
	// last evaluation below is recorded by the time it returns.
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			request(ev.Request.URL)
		case *network.EventWebSocketCreated:
			request(ev.URL)
		}
	}); err != nil {
		return nil, err
	}

	// Pause every request; let the file itself through and fail the rest.
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	fetchErr := make(chan error, 1)
	go func() {
		var err error
		for ev, e := range paused {
			if e != nil {
				break // the context ended
			}
			u := ev.Request.URL
			if local(u) {
				_, err = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			} else {
				request(u)
				_, err = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
			}
			if err != nil && ctx.Err() == nil {
				break
			}
			err = nil
		}
		fetchErr <- err
	}()
	if offline.intercept {
		if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
			return nil, err
		}
	}

	console := chromedp.Console(ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
		return nil, err
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Title string
		IDs   []string
		SVGs  []SVG
	}](readPage))
	if err != nil {
		return nil, err
	}
	p.Title, p.IDs, p.SVGs = shown.Title, shown.IDs, shown.SVGs

	// The console's messages come on their own, in order: write a last
	// one and read up to it.
	end := "mbench-browser-end-" + rand.Text()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("console.debug(%q)", end))); err != nil {
		return nil, err
	}
	for m, err := range console {
		if err != nil {
			return nil, err
		}
		if m.Type == chromedp.ConsoleDebug && m.Text == end {
			break
		}
		switch m.Type {
		case chromedp.ConsoleError, chromedp.ConsoleException, "assert":
			msg := string(m.Type) + ": " + m.Text
			if m.URL != "" {
				msg += fmt.Sprintf(" (%s:%d)", m.URL, m.Line+1)
			}
			p.Errors = append(p.Errors, msg)
		}
	}

	select {
	case err := <-fetchErr:
		if err != nil {
			return nil, fmt.Errorf("blocking requests: %w", err)
		}
	default:
	}
	mu.Lock()
	p.Requests = slices.Clone(requests)
	mu.Unlock()
	return p, nil
}

// readPage is the script that reads what [Page] reports from the loaded
// document.
const readPage = `(() => {
	const svgs = [];
	for (const s of document.querySelectorAll("svg")) {
		if (s.parentElement && s.parentElement.closest("svg")) continue;
		const r = s.getBoundingClientRect();
		const sec = s.closest("section[id]");
		const t = s.querySelector("title");
		svgs.push({
			Section: sec ? sec.id : "",
			Label: s.id || s.getAttribute("aria-label") || (t ? t.textContent.trim() : ""),
			Width: r.width,
			Height: r.height,
		});
	}
	return {
		Title: document.title,
		IDs: Array.from(document.querySelectorAll("[id]"), e => e.id),
		SVGs: svgs,
	};
})()`
