package browser

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chromedp/chromedp"
)

// A Tab is a page while the browser still shows it, for a test that looks
// at how it is laid out: it evaluates scripts in the page, resizes the
// viewport as a reader resizes a window, and takes screenshots. It is valid
// only within the function given to [OpenWith].
type Tab struct{ ctx context.Context }

// Eval evaluates the JavaScript expression expr in the page and decodes
// its value, as JSON, into out (a pointer), or ignores it when out is nil.
func (t *Tab) Eval(expr string, out any) error {
	raw, err := chromedp.Run(t.ctx, chromedp.Evaluate[[]byte](expr))
	if err != nil {
		return fmt.Errorf("evaluating %.60q: %w", expr, err)
	}
	if out == nil {
		return nil
	}
	if len(raw) == 0 {
		return fmt.Errorf("evaluating %.60q: no value", expr)
	}
	return json.Unmarshal(raw, out)
}

// Resize sets the viewport to width×height CSS pixels at a device scale
// of 1, as a window of that size at 100% zoom, and waits until the page
// is laid out again.
func (t *Tab) Resize(width, height int) error {
	if err := chromedp.Do(t.ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		return fmt.Errorf("resizing to %dx%d: %w", width, height, err)
	}
	// Two animation frames: the first after the resize's layout, the
	// second once it is painted.
	const settle = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`
	_, err := chromedp.Run(t.ctx, chromedp.Evaluate[bool](settle, chromedp.EvalAwaitPromise))
	return err
}

// Screenshot returns a PNG of the first element that matches the CSS
// selector, at one device pixel per CSS pixel, scrolled into view if it
// has to be.
func (t *Tab) Screenshot(selector string) ([]byte, error) {
	var n int
	if err := t.Eval(fmt.Sprintf("document.querySelectorAll(%q).length", selector), &n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("screenshot: no element matches %q", selector)
	}
	png, err := chromedp.Run(t.ctx, chromedp.Screenshot(chromedp.CSS(selector)))
	if err != nil {
		return nil, fmt.Errorf("screenshot of %q: %w", selector, err)
	}
	return png, nil
}
