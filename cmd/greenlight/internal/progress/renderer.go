package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Options configure a Renderer.
type Options struct {
	// Terminal redraws a spinner line in place (ANSI); false prints plain
	// lines only.
	Terminal bool
	// Width is the terminal width the spinner line is clipped to (0: 80).
	Width int
	// Logs prints every log line as it arrives, prefixed "  | " (on a
	// terminal above the spinner line). Lines are whole: a line split
	// across chunks is printed once it ends, or when its step finishes.
	Logs bool
	// Now is the clock (nil: time.Now); tests pass a fake one.
	Now func() time.Time
	// Tick is the spinner's redraw period (0: 100ms; negative: no ticker,
	// for tests that call Redraw themselves).
	Tick time.Duration
}

// spinnerFrames are the spinner's frames (braille, one cell wide).
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Renderer writes a run's events to a writer. Event may be called from one
// goroutine while the spinner redraws from another.
type Renderer struct {
	w    io.Writer
	opts Options

	mu        sync.Mutex
	start     time.Time
	steps     int       // steps of the current pipeline
	running   string    // running step's name, "" between steps
	stepStart time.Time // when the running step started
	index     int32
	logLine   string                 // running step's latest log line
	partial   map[logKey]string      // per step and stream: text after the last newline
	created   *timestamppb.Timestamp // the RunCreated event's time, when seen
	frame     int
	shown     bool // a spinner line is on screen
	closed    bool
	stop      chan struct{}
	done      chan struct{}
	// Finished holds the RunFinished event once seen.
	finished *glv1.RunFinished
}

// New returns a renderer writing to w. On a terminal it starts the
// spinner; Close stops it.
func New(w io.Writer, opts Options) *Renderer {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Width <= 0 {
		opts.Width = 80
	}
	if opts.Tick == 0 {
		opts.Tick = 100 * time.Millisecond
	}
	r := &Renderer{w: w, opts: opts, start: opts.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if opts.Terminal && opts.Tick > 0 {
		go r.spin()
	} else {
		close(r.done)
	}
	return r
}

// spin redraws the spinner line until Close.
func (r *Renderer) spin() {
	defer close(r.done)
	t := time.NewTicker(r.opts.Tick)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.Redraw()
		}
	}
}

// Finished returns the run's RunFinished event, or nil before it.
func (r *Renderer) Finished() *glv1.RunFinished {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finished
}

// Close stops the spinner and erases its line.
func (r *Renderer) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.stop)
	r.mu.Unlock()
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearSpinner()
}

// Redraw draws the spinner line now (terminal mode only).
func (r *Renderer) Redraw() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.opts.Terminal || r.closed {
		return
	}
	r.frame = (r.frame + 1) % len(spinnerFrames)
	r.drawSpinner()
}

// drawSpinner writes the spinner line over the current one.
func (r *Renderer) drawSpinner() {
	now := r.opts.Now()
	var line string
	if r.running != "" {
		line = fmt.Sprintf("%s %s  %s", spinnerFrames[r.frame], r.running, Duration(now.Sub(r.stepStart)))
		if r.steps > 0 {
			line = fmt.Sprintf("%s [%d/%d] %s  %s", spinnerFrames[r.frame], r.index+1, r.steps, r.running, Duration(now.Sub(r.stepStart)))
		}
		if r.logLine != "" {
			line += "  │ " + r.logLine
		}
	} else {
		line = fmt.Sprintf("%s working  %s", spinnerFrames[r.frame], Duration(now.Sub(r.start)))
	}
	fmt.Fprint(r.w, "\r\x1b[2K"+termtext.Clip(termtext.Line(line, 0), r.opts.Width-1))
	r.shown = true
}

// clearSpinner erases the spinner line so a permanent line can be written.
func (r *Renderer) clearSpinner() {
	if r.shown {
		fmt.Fprint(r.w, "\r\x1b[2K")
		r.shown = false
	}
}

// println writes a permanent line (above the spinner on a terminal). The
// arguments carry text from the sandbox and the repository (names,
// commands, reasons, log lines), so the formatted line is cleaned of
// control sequences (package termtext) before it reaches the terminal.
func (r *Renderer) println(format string, args ...any) {
	r.clearSpinner()
	fmt.Fprint(r.w, termtext.Clean(fmt.Sprintf(format, args...))+"\n")
}

// Event shows one event.
func (r *Renderer) Event(ev *glv1.RunEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.event(ev)
	if r.opts.Terminal && !r.closed && r.finished == nil {
		r.drawSpinner()
	}
}

func (r *Renderer) event(ev *glv1.RunEvent) {
	switch k := ev.GetKind().(type) {
	case *glv1.RunEvent_RunCreated:
		r.created = ev.GetTime()
		run := k.RunCreated.GetRun()
		r.println("run %s created (%s)", run.GetId(), strings.ToLower(display.Enum(run.GetKind())))
	case *glv1.RunEvent_DiscoveryDone:
		r.discovered(k.DiscoveryDone)
	case *glv1.RunEvent_StepStarted:
		r.stepStarted(k.StepStarted)
	case *glv1.RunEvent_LogChunk:
		r.logChunk(k.LogChunk)
	case *glv1.RunEvent_LogCapped:
		if r.opts.Logs {
			r.println("  | (live output of %s capped at %d bytes; the step's stored log has the rest)", k.LogCapped.GetStep(), k.LogCapped.GetStoredBytes())
		}
	case *glv1.RunEvent_StepFinished:
		r.stepFinished(k.StepFinished)
	case *glv1.RunEvent_Queued:
		r.println("queued: position %d (all %d sandboxes of the executors are in use)", k.Queued.GetPosition(), k.Queued.GetCapacity())
	case *glv1.RunEvent_ExecutorRetry:
		x := k.ExecutorRetry
		r.println("executor %s failed (%s): running again on another executor", x.GetFailedExecutor(), x.GetReason())
	case *glv1.RunEvent_PatchReplyRefused:
		r.println("patch reply for attempt %d refused: %s", k.PatchReplyRefused.GetAttempt(), k.PatchReplyRefused.GetReason())
	case *glv1.RunEvent_TestsParsed:
		if c := k.TestsParsed.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
			r.println("      tests: %s", Counts(c))
		}
	case *glv1.RunEvent_VerificationDone:
		r.verificationDone(k.VerificationDone)
	case *glv1.RunEvent_VerifyFailedRetry:
		v := k.VerifyFailedRetry
		r.println("attempt %d/%d failed at %q: retrying", v.GetAttempt(), v.GetMaxAttempts(), v.GetFailedCommand())
	case *glv1.RunEvent_VerifyFailedMaxRetries:
		r.println("stopped after %d attempt(s)", k.VerifyFailedMaxRetries.GetAttempts())
	case *glv1.RunEvent_TierSkipped:
		r.println("%s skipped: %s", tierName(k.TierSkipped.GetTier()), k.TierSkipped.GetReason())
	case *glv1.RunEvent_RoundStarted:
		r.println("repair round %d", k.RoundStarted.GetRound())
	case *glv1.RunEvent_PatchRequested:
		req := k.PatchRequested.GetRequest()
		r.println("patch requested (attempt %d) for %q", req.GetAttempt(), req.GetFailingCommand())
	case *glv1.RunEvent_PatchEvaluated:
		r.patchEvaluated(k.PatchEvaluated.GetOutcome())
	case *glv1.RunEvent_RunFinished:
		r.finished = k.RunFinished
		r.running = ""
		r.println("run finished: %s in %s", RunStatus(k.RunFinished.GetStatus()), Duration(r.runTime(ev)))
	}
}

// runTime is how long the run took: from its RunCreated event to fin by
// the server's clock (so watching a finished run reports the run's time,
// not the replay's), else since the renderer started.
func (r *Renderer) runTime(fin *glv1.RunEvent) time.Duration {
	if r.created != nil && fin.GetTime() != nil {
		return fin.GetTime().AsTime().Sub(r.created.AsTime())
	}
	return r.opts.Now().Sub(r.start)
}

func (r *Renderer) discovered(d *glv1.DiscoveryDone) {
	p := d.GetPipeline()
	r.steps = len(p.GetSteps())
	names := make([]string, 0, len(p.GetSteps()))
	for _, s := range p.GetSteps() {
		names = append(names, s.GetName())
	}
	runtime := p.GetRuntime()
	if runtime == "" {
		runtime = "workspace"
	}
	r.println("discovered %s: %d steps (%s), up to %s", runtime, r.steps, strings.Join(names, ", "), Level(p.GetMaxLevel()))
}

func (r *Renderer) stepStarted(s *glv1.StepStarted) {
	r.running, r.index, r.logLine = s.GetStep().GetName(), s.GetIndex(), ""
	r.stepStart = r.opts.Now() // our clock, not the event's: the server's may differ
	r.println("%s %s: %s%s", r.position(s.GetIndex()), s.GetStep().GetName(), display.Brief(s.GetStep()), ciSource(s.GetStep()))
}

// ciSource names the CI file and line a step was learned from (origin
// "ci"): a step the user never configured says where it comes from.
func ciSource(s *glv1.Step) string {
	src := s.GetSource()
	if src.GetOrigin() != "ci" || src.GetFile() == "" {
		return ""
	}
	return fmt.Sprintf("  (from the maintainers' CI: %s:%d)", src.GetFile(), src.GetLine())
}

func (r *Renderer) logChunk(c *glv1.LogChunk) {
	data := termtext.Clean(c.GetData())
	if l := lastLine(data); l != "" {
		r.logLine = l
	}
	if !r.opts.Logs {
		return
	}
	if r.partial == nil {
		r.partial = map[logKey]string{}
	}
	k := logKey{c.GetIndex(), c.GetStream()}
	lines := strings.Split(r.partial[k]+data, "\n")
	r.partial[k] = lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		r.println("  | %s", l)
	}
}

// logKey names one stream of one step.
type logKey struct {
	index  int32
	stream glv1.Stream
}

// flushLogs prints what step index left after its last newline.
func (r *Renderer) flushLogs(index int32) {
	for k, rest := range r.partial {
		if k.index == index {
			if rest != "" {
				r.println("  | %s", rest)
			}
			delete(r.partial, k)
		}
	}
}

func (r *Renderer) stepFinished(f *glv1.StepFinished) {
	r.flushLogs(f.GetIndex())
	res := f.GetResult()
	mark := "✓"
	if res.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
		mark = "✗"
	}
	detail := StepStatus(res.GetStatus())
	if res.GetStatus() == glv1.StepStatus_STEP_STATUS_SKIPPED {
		mark = "-"
	} else if res.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
		detail += fmt.Sprintf(" (exit %d)", res.GetExitCode())
	}
	if res.GetCacheHit() {
		detail += ", cache hit"
	}
	if n := res.GetCacheNote(); n != "" {
		detail += " [" + n + "]"
	}
	if res.GetReason() != "" && res.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
		detail += ": " + res.GetReason()
	}
	r.println("%s %s %s %s in %s", r.position(f.GetIndex()), mark, res.GetName(), detail, Duration(res.GetDuration().AsDuration()))
	r.running, r.logLine = "", ""
}

func (r *Renderer) verificationDone(v *glv1.VerificationDone) {
	verdict := "passed"
	if !v.GetOk() {
		verdict = "failed"
		if v.GetFailedCommand() != "" {
			verdict += fmt.Sprintf(" at %q", v.GetFailedCommand())
		}
	}
	line := fmt.Sprintf("%s %s", verificationName(v.GetAttempt()), verdict)
	if s := v.GetScore(); s != nil {
		line += fmt.Sprintf(": score %.1f/10, level %s", s.GetTotal(), Level(s.GetLevel()))
	}
	r.println("%s", line)
}

func (r *Renderer) patchEvaluated(o *glv1.PatchOutcome) {
	switch {
	case o.GetRolledBack():
		r.println("patch %d rolled back: %s", o.GetAttempt(), o.GetReason())
	case o.GetApplied():
		r.println("patch %d applied: +%d -%d in %s", o.GetAttempt(), o.GetLinesAdded(), o.GetLinesRemoved(), strings.Join(o.GetFiles(), ", "))
	default:
		r.println("patch %d refused: %s", o.GetAttempt(), o.GetReason())
	}
	if t := o.GetTransitions(); t != nil {
		r.println("  against the baseline: %s", display.Transitions(t))
		for _, c := range t.GetChanges() {
			if c.GetKind() == glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL || c.GetKind() == glv1.TransitionKind_TRANSITION_KIND_DISAPPEARED {
				r.println("    %s %s (%s)", display.TransitionKind(c.GetKind()), c.GetId(), c.GetStep())
			}
		}
	}
}

// verificationName names a verification attempt. A repair run numbers
// the verification of the unpatched snapshot 0 and the one after patch N
// N; a verify run counts its attempts from 1.
func verificationName(attempt int32) string {
	if attempt == 0 {
		return "baseline verification"
	}
	return fmt.Sprintf("verification %d", attempt)
}

// position renders "[i/n]" (1-based) or "[i]" before discovery.
func (r *Renderer) position(index int32) string {
	if r.steps > 0 {
		return fmt.Sprintf("[%d/%d]", index+1, r.steps)
	}
	return fmt.Sprintf("[%d]", index+1)
}

// tierName renders "tier 1".
func tierName(t glv1.Tier) string { return "tier " + display.Enum(t) }
