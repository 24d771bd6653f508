package engine

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"unicode"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
)

// Hidden tests (FixOptions.hidden_tests, ADVERSARIAL row 47). A patch
// that hard-codes the expected output for the visible test's input, or
// fixes the bug only under test, passes every test the model saw; only
// tests it never saw catch it. The caller's hidden tests are a unified
// diff laid over each candidate snapshot, with the loop's own patch code,
// for the grading verification alone: the verification that decides
// acceptance and green. The snapshot patches apply to never holds them,
// and the patch request is built from a verification without them (see
// fixer.see), so no hidden path, test name or line reaches the model; it
// learns how many hidden tests fail. A patch that touches a path the
// hidden diff touches (or a file or directory in its way) is refused:
// the hidden files stay the grader's.

// maxHiddenBytes caps the hidden tests' diff.
const maxHiddenBytes = 16 << 20

// hiddenGuard applies the caller's hidden tests: the caller is trusted,
// so they may add or change tests, config and lockfiles, at any size.
var hiddenGuard = patch.Guardrails{MaxBytes: -1, MaxChangedLines: -1, AllowTestChanges: true,
	AllowConfigChanges: true, AllowLockfileEdits: true, Trusted: true}

// hiddenTests are a fix run's hidden tests.
type hiddenTests struct {
	// text is the diff as the caller uploaded it.
	text string
	// paths are every path it touches, as applied to the baseline.
	paths []string
	// targets are FixOptions.hidden_targets.
	targets []string
	// goTests are the test functions of the hidden Go test files, by
	// file: Go test ids name the package, not the file.
	goTests map[string][]string
	// graded maps a snapshot's hash to its grading snapshot (the hidden
	// tests laid over it).
	graded map[string]*glv1.Digest
}

// loadHidden reads and checks FixOptions.hidden_tests against the
// baseline snapshot: a diff that cannot be read or does not apply is the
// caller's error (ErrInvalidArgument), found before round 1. It returns
// nil when the run has no hidden tests.
func (e *Engine) loadHidden(ctx context.Context, opts *glv1.FixOptions, baseline blob.Digest) (*hiddenTests, error) {
	d := opts.GetHiddenTests()
	if d == nil || (d.GetHash() == "" && d.GetSizeBytes() == 0) {
		if len(opts.GetHiddenTargets()) > 0 {
			return nil, fmt.Errorf("%w: options.hidden_targets names hidden tests but options.hidden_tests is not set: "+
				"upload the hidden tests' diff with BlobService.Write and pass its digest", ErrInvalidArgument)
		}
		return nil, nil
	}
	if err := checkIDs("hidden_targets", opts.GetHiddenTargets()); err != nil {
		return nil, err
	}
	text, err := e.readHidden(ctx, d)
	if err != nil {
		return nil, err
	}
	p, err := patch.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%w: options.hidden_tests is not a unified diff: %w", ErrInvalidArgument, err)
	}
	h := &hiddenTests{text: text, targets: opts.GetHiddenTargets(), graded: map[string]*glv1.Digest{}}
	g, err := h.apply(ctx, e, baseline.Proto(), p)
	if err != nil {
		if errors.Is(err, errInfra) || ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: options.hidden_tests does not apply to the snapshot: %w (make the diff against the workspace "+
			"you packed, with paths relative to its root; greenlight fix --hidden-tests DIR makes one from a directory)", ErrInvalidArgument, err)
	}
	for _, f := range p.Files {
		h.paths = append(h.paths, f.Paths()...)
	}
	if h.goTests, err = goTestsOf(ctx, e, g, h.paths); err != nil {
		return nil, err
	}
	return h, nil
}

// readHidden reads the hidden tests' diff from the blob store.
func (e *Engine) readHidden(ctx context.Context, d *glv1.Digest) (string, error) {
	bd, err := blob.DigestFromProto(d)
	if err != nil {
		return "", fmt.Errorf("%w: options.hidden_tests: %w", ErrInvalidArgument, err)
	}
	size, found, err := e.d.Blobs.Stat(ctx, bd)
	switch {
	case err != nil:
		return "", fmt.Errorf("%w: hidden tests %s: stat: %w", errInfra, bd, err)
	case !found || size != bd.Size:
		return "", fmt.Errorf("%w: options.hidden_tests %s is not in the blob store: upload the diff with BlobService.Write first",
			ErrInvalidArgument, bd)
	case size > maxHiddenBytes:
		return "", fmt.Errorf("%w: options.hidden_tests is %d bytes; at most %d", ErrInvalidArgument, size, maxHiddenBytes)
	}
	rc, err := e.d.Blobs.Open(ctx, bd)
	if err != nil {
		return "", fmt.Errorf("%w: hidden tests %s: open: %w", errInfra, bd, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxHiddenBytes+1))
	if err != nil {
		return "", fmt.Errorf("%w: hidden tests %s: read: %w", errInfra, bd, err)
	}
	return string(b), nil
}

// checkIDs refuses empty, multi-line or too many test ids in a list of
// FixOptions.
func checkIDs(field string, ids []string) error {
	if len(ids) > maxTargets {
		return fmt.Errorf("%w: options.%s has %d entries; at most %d", ErrInvalidArgument, field, len(ids), maxTargets)
	}
	for i, id := range ids {
		if strings.TrimSpace(id) == "" || strings.ContainsAny(id, "\n\r") {
			return fmt.Errorf("%w: options.%s[%d] is %q: name a test id (e.g. pkg.TestX, tests/test_a.py::test_b)", ErrInvalidArgument, field, i, id)
		}
	}
	return nil
}

// over returns the grading snapshot of snapshot: the hidden tests laid
// over it (made once per snapshot).
func (h *hiddenTests) over(ctx context.Context, e *Engine, snapshot *glv1.Digest) (*glv1.Digest, error) {
	if g, ok := h.graded[snapshot.GetHash()]; ok {
		return g, nil
	}
	p, err := patch.Parse(h.text)
	if err != nil {
		return nil, fmt.Errorf("%w: hidden tests: %w", errInfra, err)
	}
	return h.apply(ctx, e, snapshot, p)
}

// apply applies the hidden tests' diff p to snapshot with the loop's
// patch code and stores the grading snapshot. Errors are the patch's
// (it does not apply) unless they wrap errInfra.
func (h *hiddenTests) apply(ctx context.Context, e *Engine, snapshot *glv1.Digest, p *patch.Patch) (*glv1.Digest, error) {
	bd, err := blob.DigestFromProto(snapshot)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errInfra, err)
	}
	rc, err := e.d.Blobs.Open(ctx, bd)
	if err != nil {
		return nil, fmt.Errorf("%w: open snapshot: %w", errInfra, err)
	}
	defer rc.Close()
	res, err := patch.Apply(ctx, rc, p, patch.Options{Guardrails: hiddenGuard, Limits: e.cfg.Snapshot})
	if err != nil {
		if errors.Is(err, patch.ErrSnapshot) || errors.Is(err, patch.ErrRepack) {
			return nil, fmt.Errorf("%w: lay the hidden tests over %s: %w", errInfra, bd, err)
		}
		return nil, err
	}
	defer res.Close()
	tr, err := res.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errInfra, err)
	}
	defer tr.Close()
	d, err := e.d.Blobs.Put(ctx, tr)
	if err != nil {
		return nil, fmt.Errorf("%w: store the grading snapshot: %w", errInfra, err)
	}
	g := d.Proto()
	h.graded[snapshot.GetHash()] = g
	return g, nil
}

// guard refuses a candidate patch (its paths as applied) that touches a
// hidden path, or a file or directory in its way. The refusal is the test
// rule's and names only the path the patch itself wrote.
func (h *hiddenTests) guard(p *patch.Patch) error {
	for _, f := range p.Files {
		for _, name := range f.Paths() {
			if h.collides(name) {
				return &patch.Refusal{Rule: patch.RuleTestEdit, Path: name,
					Reason: "this path belongs to the grader's tests: a patch may not add, edit, move or delete it, " +
						"nor a file or directory in its way; fix the code under test"}
			}
		}
	}
	return nil
}

// collides reports whether a workspace path is a hidden path, a directory
// holding one, or a path below one.
func (h *hiddenTests) collides(p string) bool {
	for _, hp := range h.paths {
		if p == hp || strings.HasPrefix(hp, p+"/") || strings.HasPrefix(p, hp+"/") {
			return true
		}
	}
	return false
}

// goTestFunc matches a Go test, example or fuzz function.
var goTestFunc = regexp.MustCompile(`(?m)^func\s+((?:Test|Example|Fuzz)[A-Za-z0-9_]*)\s*\(`)

// goTestsOf reads the test functions of the hidden Go test files from the
// grading snapshot g.
func goTestsOf(ctx context.Context, e *Engine, g *glv1.Digest, paths []string) (map[string][]string, error) {
	want := map[string]bool{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			want[p] = true
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	bd, err := blob.DigestFromProto(g)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errInfra, err)
	}
	rc, err := e.d.Blobs.Open(ctx, bd)
	if err != nil {
		return nil, fmt.Errorf("%w: open the grading snapshot: %w", errInfra, err)
	}
	defer rc.Close()
	out := map[string][]string{}
	tr := tar.NewReader(rc)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: read the grading snapshot: %w", errInfra, err)
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "./"))
		if hdr.Typeflag != tar.TypeReg || !want[name] {
			continue
		}
		var b bytes.Buffer
		if _, err := io.Copy(&b, io.LimitReader(tr, maxHiddenBytes)); err != nil {
			return nil, fmt.Errorf("%w: read the grading snapshot: %w", errInfra, err)
		}
		for _, m := range goTestFunc.FindAllStringSubmatch(b.String(), -1) {
			if isGoTestName(m[1]) {
				out[name] = append(out[name], m[1])
			}
		}
	}
}

// isGoTestName applies go test's rule: TestXxx (ExampleXxx, FuzzXxx)
// where Xxx does not start with a lower-case letter.
func isGoTestName(name string) bool {
	for _, prefix := range []string{"Test", "Example", "Fuzz"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			return rest == "" || !unicode.IsLower([]rune(rest)[0])
		}
	}
	return false
}
