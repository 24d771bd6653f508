package gatewaysvc

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bt "github.com/greenlight-dev/greenlight/services/gateway/internal/browsertest"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// visibleStepTables counts the step tables a person can see.
const visibleStepTables = `Array.from(document.querySelectorAll('table.steps')).filter(t => t.checkVisibility()).length`

// overflowing lists the elements that stick out of the viewport on the
// right (their tag, id and class), for a message that says what to fix.
const overflowing = `Array.from(document.querySelectorAll('body *')).filter(e => {
	const r = e.getBoundingClientRect();
	return r.width > 0 && r.right > document.documentElement.clientWidth + 0.5 && getComputedStyle(e).position !== 'absolute';
}).slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''))`

// inView reports whether the element with id is inside the viewport.
func inView(id string) string {
	return `(() => { const r = document.getElementById(` + jsString(id) + `).getBoundingClientRect();
		return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; })()`
}

// checkScreens shows the current page at every bt.Screens size, saves a
// screenshot of each as name-<screen>.png and checks that nothing makes a
// phone scroll sideways.
func checkScreens(t *testing.T, ctx context.Context, url, name string) {
	t.Helper()
	for _, s := range bt.Screens {
		bt.Emulate(t, ctx, s)
		bt.Navigate(t, ctx, url)
		if s.Width <= 390 {
			if w := bt.Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > int(s.Width) {
				t.Errorf("%s at %s: the page is %d px wide, wider than the %d px screen; overflowing: %v",
					name, s.Name, w, s.Width, bt.Eval[[]string](t, ctx, overflowing))
			}
		}
		dark := bt.Eval[bool](t, ctx, `matchMedia('(prefers-color-scheme: dark)').matches`)
		bg := bt.Eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
		if dark != s.Dark || (s.Dark && bg == "rgb(255, 255, 255)") || (!s.Dark && bg != "rgb(255, 255, 255)") {
			t.Errorf("%s at %s: dark=%v, body background %s", name, s.Name, dark, bg)
		}
		bt.Shot(t, ctx, name+"-"+s.Name)
	}
	bt.Emulate(t, ctx, bt.Screens[0])
}

// waitNavigated waits for predicate on the page a click navigated to: the
// old page's context goes away under a poll, so errors are retried.
func waitNavigated(t *testing.T, ctx context.Context, predicate, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](predicate))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s (%s): %v", what, predicate, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestBrowserFixRunReport(t *testing.T) {
	g, ctx := browserGateway(t)
	f := g.loop.PutFixRounds(t, "fix-2")
	report := g.httpURL + "/runs/fix-2"

	t.Run("baseline and rounds", func(t *testing.T) {
		bt.Navigate(t, ctx, report)
		fails := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#round-0 .fails li')).filter(e => e.offsetParent !== null).map(e => e.innerText)`)
		if len(fails) != 2 || !strings.Contains(fails[0], fmt.Sprintf("calc/calc_test.go:%d", f.DivLine)) || !strings.Contains(fails[0], loopfake.DivTestID) ||
			!strings.Contains(fails[1], loopfake.TrimTestID) {
			t.Errorf("baseline failures shown = %q", fails)
		}
		if got := bt.Eval[string](t, ctx, `document.querySelector('#round-0 header .badge').innerText`); got != "FAIL" {
			t.Errorf("baseline verdict = %q", got)
		}
		if got := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('.round h3')).map(e => e.innerText)`); strings.Join(got, "|") != "Baseline|Round 1|Round 2|Final state" {
			t.Errorf("columns = %q", got)
		}
		// Side by side on a laptop: the baseline and round 1 share a row.
		if !bt.Eval[bool](t, ctx, `document.getElementById('round-0').getBoundingClientRect().top === document.getElementById('round-1').getBoundingClientRect().top`) {
			t.Error("baseline and round 1 are not side by side at 1280 px")
		}
		changes := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#round-2 .changes li')).map(e => e.innerText)`)
		if len(changes) != 2 || !strings.HasPrefix(changes[0], "FAIL_TO_PASS") || !strings.HasPrefix(changes[1], "FAIL_TO_PASS") ||
			!strings.HasSuffix(changes[1], "failed → passed") {
			t.Errorf("round 2 transitions = %q", changes)
		}
		r1 := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#round-1 .changes li .badge')).map(e => e.innerText)`)
		if strings.Join(r1, " ") != "FAIL_TO_PASS FAIL_TO_FAIL" {
			t.Errorf("round 1 transitions = %q", r1)
		}
		if got := bt.Eval[string](t, ctx, `document.querySelector('#round-2 header .badge').innerText + ' ' + document.querySelector('#final header .badge').innerText`); got != "PASS PASSED" {
			t.Errorf("round 2 and final verdicts = %q", got)
		}
		if got := bt.Eval[string](t, ctx, `getComputedStyle(document.querySelector('#round-2 header .badge')).color`); got != "rgb(26, 127, 55)" {
			t.Errorf("the green round's badge colour = %s", got)
		}
		// A round's patch link opens the collapsed diff it points at.
		bt.Eval[bool](t, ctx, `document.getElementById('patch-1').open = false, true`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#round-1 .patchline a`))); err != nil {
			t.Fatal(err)
		}
		bt.WaitFor(t, ctx, `document.getElementById('patch-1').open`, "the patch diff to open", 5*time.Second)
	})

	t.Run("file:line opens the code view at the line", func(t *testing.T) {
		bt.Navigate(t, ctx, report)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#round-0 .fails a.loc`))); err != nil {
			t.Fatal(err)
		}
		anchor := fmt.Sprintf("L%d", f.DivLine)
		waitNavigated(t, ctx, `location.pathname === '/runs/fix-2/code/calc/calc_test.go' && document.readyState === 'complete'`, "the code view")
		if got := bt.Eval[string](t, ctx, `(document.querySelector(':target') || {}).id || ''`); got != anchor {
			t.Fatalf("target line = %q, want %s", got, anchor)
		}
		if !bt.Eval[bool](t, ctx, inView(anchor)) {
			t.Errorf("line %s is not in view", anchor)
		}
		if got := bt.Eval[string](t, ctx, `document.getElementById('`+anchor+`').innerText`); !strings.Contains(got, "want an error") {
			t.Errorf("line %s = %q", anchor, got)
		}
		if bg := bt.Eval[string](t, ctx, `getComputedStyle(document.getElementById('`+anchor+`')).backgroundColor`); bg == "rgba(0, 0, 0, 0)" {
			t.Error("the target line is not highlighted")
		}
		if bt.Eval[float64](t, ctx, `window.scrollY`) == 0 {
			t.Error("the page did not scroll to the line (the test file is long enough to need it)")
		}
		bt.Shot(t, ctx, "code-view-1280-light")
		bt.Navigate(t, ctx, g.httpURL+"/runs/fix-2/code/util/util.go#L5")
		if got := bt.Eval[string](t, ctx, `document.getElementById('L5').innerText`); !strings.Contains(got, loopfake.HostileComment) {
			t.Errorf("hostile line = %q", got)
		}
		if got := bt.Eval[string](t, ctx, `String(window.pwned)`); got != "undefined" {
			t.Errorf("markup in a file ran: window.pwned = %s", got)
		}
	})

	t.Run("log search filters lines", func(t *testing.T) {
		bt.Navigate(t, ctx, g.httpURL+"/runs/fix-2/logs/go-test?attempt=0#L3")
		total := bt.Eval[int](t, ctx, `document.querySelectorAll('#log .line').length`)
		if total < 20 || bt.Eval[string](t, ctx, `document.querySelector(':target').id`) != "L3" {
			t.Fatalf("log page: %d lines, target %q", total, bt.Eval[string](t, ctx, `(document.querySelector(':target')||{}).id`))
		}
		if got := bt.Eval[string](t, ctx, `document.getElementById('log').innerText`); strings.Contains(got, `"Action"`) || !strings.Contains(got, "--- FAIL: TestDiv") {
			t.Errorf("log text = %.300q", got)
		}
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#log-filter`), "--- FAIL")); err != nil {
			t.Fatal(err)
		}
		// Each key filters again: wait for the whole query's result.
		bt.WaitFor(t, ctx, `document.getElementById('log-filter').value === '--- FAIL' && document.getElementById('log-count').innerText.startsWith('2 of')`,
			"the filter to apply", 5*time.Second)
		shown := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#log .line')).filter(l => !l.hidden && l.offsetParent !== null).map(l => l.id + ' ' + l.textContent)`)
		if len(shown) != 2 || !strings.Contains(shown[0], "--- FAIL: TestDiv") || !strings.Contains(shown[1], "--- FAIL: TestTrim") {
			t.Errorf("lines left by the filter = %q", shown)
		}
		if got := bt.Eval[string](t, ctx, `document.getElementById('log-count').innerText`); got != fmt.Sprintf("2 of %d lines match", total) {
			t.Errorf("count = %q", got)
		}
		bt.Shot(t, ctx, "log-filtered-1280-light")
		bt.Eval[bool](t, ctx, `(i => { i.value = ''; i.dispatchEvent(new Event('input')); return true })(document.getElementById('log-filter'))`)
		bt.WaitFor(t, ctx, fmt.Sprintf(`document.querySelectorAll('#log .line:not([hidden])').length === %d`, total), "every line back", 5*time.Second)
	})

	t.Run("screens", func(t *testing.T) {
		checkScreens(t, ctx, report, "report-fix-rounds")
		checkScreens(t, ctx, fmt.Sprintf("%s/runs/fix-2/code/calc/calc_test.go?snapshot=%s#L%d", g.httpURL, f.Snapshots[0].GetHash(), f.DivLine), "code-view")
		checkScreens(t, ctx, g.httpURL+"/runs/fix-2/logs/go-test?attempt=0", "log")
		checkScreens(t, ctx, g.httpURL+"/", "runs-list")
		checkScreens(t, ctx, g.httpURL+"/runs/run-fail", "report-failing-verify")
		// Stacked on a phone: round 1 below the baseline.
		bt.Emulate(t, ctx, bt.Screens[2])
		bt.Navigate(t, ctx, report)
		if !bt.Eval[bool](t, ctx, `document.getElementById('round-1').getBoundingClientRect().top > document.getElementById('round-0').getBoundingClientRect().bottom`) {
			t.Error("the rounds are not stacked at 390 px")
		}
		bt.Emulate(t, ctx, bt.Screens[0])
	})
}

func TestBrowserRunsListFilter(t *testing.T) {
	g, ctx := browserGateway(t)
	g.loop.PutFixRounds(t, "fix-2")
	bt.Navigate(t, ctx, g.httpURL+"/")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`nav.filters a[href="/?status=failed"]`))); err != nil {
		t.Fatal(err)
	}
	waitNavigated(t, ctx, `location.search === '?status=failed' && document.readyState === 'complete'`, "the failed filter")
	if got := rows(t, ctx, "table.runs"); len(got) != 1 || got[0][0] != "run-fail" {
		t.Errorf("failed runs = %q", got)
	}
	if got := bt.Eval[string](t, ctx, `document.querySelector('nav.filters [aria-current=page]').innerText`); got != "Failed" {
		t.Errorf("current filter = %q", got)
	}

	// The list follows new runs without a reload.
	bt.Navigate(t, ctx, g.httpURL+"/?status=running")
	bt.Eval[bool](t, ctx, `window.sameDocument = true`)
	if got := bt.Eval[string](t, ctx, `document.getElementById('runs-list').innerText`); !strings.Contains(got, "No Running runs") {
		t.Fatalf("running list = %q", got)
	}
	g.loop.Put(&glv1.Run{Id: "run-new", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_RUNNING,
		CreatedAt: timestamppb.Now(), SourceDir: "/home/dev/svc"})
	bt.WaitFor(t, ctx, `Array.from(document.querySelectorAll('table.runs tbody tr')).some(tr => tr.innerText.includes('run-new'))`,
		"the new run to appear", 10*time.Second)
	g.loop.Emit("run-new", loopfake.Finished(glv1.RunStatus_RUN_STATUS_FAILED, &glv1.Result{Status: glv1.Verdict_VERDICT_FAIL}))
	bt.WaitFor(t, ctx, `document.getElementById('runs-list').innerText.includes('No Running runs')`, "the finished run to leave the running list", 10*time.Second)
	if !bt.Eval[bool](t, ctx, `window.sameDocument === true`) {
		t.Error("the list reloaded the page")
	}
}

func TestBrowserLiveFixRun(t *testing.T) {
	g, ctx := browserGateway(t)
	f := loopfake.NewFixRounds(t, "fix-live", g.loop.PutBlob)
	// Events up to round 2's verification first, the rest later.
	split := slices.IndexFunc(f.Events, func(ev *glv1.RunEvent) bool {
		return ev.GetDiscoveryDone() != nil && ev.GetDiscoveryDone().GetAttempt() == 2
	})
	g.loop.Put(&glv1.Run{Id: f.ID, Kind: glv1.RunKind_RUN_KIND_FIX, Status: glv1.RunStatus_RUN_STATUS_RUNNING,
		Snapshot: f.Snapshots[0], CreatedAt: timestamppb.Now(), SourceDir: "/home/dev/svc"})
	g.loop.Emit(f.ID, f.Events[:split]...)

	bt.Navigate(t, ctx, g.httpURL+"/runs/"+f.ID)
	bt.Eval[bool](t, ctx, `window.sameDocument = true`)
	bt.WaitFor(t, ctx, `document.querySelectorAll('#live .live-group').length === 2 && document.querySelectorAll('#live .live-group')[1].querySelectorAll('tbody tr').length === 4`,
		"the baseline's and round 1's step tables", 10*time.Second)
	groups := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#live .live-group h3')).map(e => e.innerText)`)
	if strings.Join(groups, "|") != "Baseline (unpatched)|Round 1" {
		t.Errorf("live groups = %q", groups)
	}
	baseline := rows(t, ctx, "#live .live-group:first-child table.live-steps")
	if len(baseline) != 4 || baseline[3][1] != "go-test" || baseline[3][5] != "FAILED" || baseline[3][3] != "1" {
		t.Errorf("the baseline's rows were overwritten: %q", baseline)
	}
	bt.Shot(t, ctx, "report-live-fix-1280-light")

	final := proto.Clone(f.Run).(*glv1.Run)
	final.LastSeq = uint64(len(f.Events))
	g.loop.Put(final)
	g.loop.Emit(f.ID, f.Events[split:]...)
	bt.WaitFor(t, ctx, `document.querySelector('#banner').classList.contains('pass')`, "the pass banner", 10*time.Second)
	bt.WaitFor(t, ctx, `document.querySelector('#live details.live-done') !== null`, "the live record to fold away", 5*time.Second)
	if got := bt.Eval[int](t, ctx, visibleStepTables); got != 1 {
		t.Errorf("%d step tables visible after the run finished, want 1", got)
	}
	if got := bt.Eval[int](t, ctx, `document.querySelectorAll('#live .live-group').length`); got != 3 {
		t.Errorf("live groups kept = %d, want 3", got)
	}
	if got := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('.round h3')).map(e => e.innerText)`); len(got) != 4 {
		t.Errorf("rounds after finishing = %q", got)
	}
	if !bt.Eval[bool](t, ctx, `window.sameDocument === true`) {
		t.Error("the page reloaded")
	}
	bt.Shot(t, ctx, "report-live-fix-finished-1280-light")
}
