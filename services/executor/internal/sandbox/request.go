package sandbox

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// Request is one pipeline execution.
type Request struct {
	RunID     string
	Owner     string
	CommitSHA string
	Snapshot  blob.Digest
	// Runtime is the pipeline's primary runtime ("go", "python", ...), named
	// in the hint when its image is missing.
	Runtime string
	// Image is the default image of steps without their own.
	Image  string
	Steps  []Step
	Limits Limits
	// CABundle is extra PEM trusted by install steps (added to the server's
	// configured bundle).
	CABundle []byte
}

// Step is one shell command of a pipeline.
type Step struct {
	Name    string
	Command string
	// Workdir is relative to the workspace root.
	Workdir string
	Env     map[string]string
	// Timeout of zero means the server default.
	Timeout time.Duration
	// Install marks a dependency-installation step: the only kind that may
	// have network egress and use the dependency cache.
	Install bool
	// Network asks for egress; only honoured (and only allowed) on install
	// steps.
	Network           bool
	ContinueOnFailure bool
	// Group: adjacent steps with the same non-empty group run concurrently.
	Group string
	// FailureScope names an independent subproject: its failed step skips
	// only the later steps of the same scope and those with none (see
	// stops).
	FailureScope string
	// Image overrides Request.Image.
	Image string
	// Runtime names the runtime the step's image is for ("rust"), for the
	// message when the engine lacks that image; "" means Request.Runtime.
	Runtime string
	// CacheKeyFiles (relative to the workspace root, like discovery
	// writes them) key the dependency cache: lockfiles and manifests.
	CacheKeyFiles []string
	// CachePaths (relative to Workdir) hold what the install step produced.
	CachePaths []string
	// ToolchainOnly marks a step that runs only the toolchain on the
	// project's files, never code of the project (see warm.go): the
	// sandbox's warm build state is saved before the first step that is
	// not.
	ToolchainOnly bool
	// ReportFiles are absolute sandbox paths (under /tmp, the workspace or
	// the home directory) of machine-readable reports the step writes
	// (JUnit XML, ...), collected after the step as Result.Reports. The
	// last element may be a pattern (path.Match), for tools that write one
	// file per suite: /workspace/target/surefire-reports/TEST-*.xml.
	ReportFiles []string
}

// Limits are the resource limits of a run. Zero fields take the server's
// defaults; larger values are clamped to the server's maxima.
type Limits struct {
	CPUs            float64
	MemoryBytes     int64
	Pids            int64
	TmpfsBytes      int64
	HomeBytes       int64
	WorkspaceBytes  int64
	LogBytesPerStep int64
	RunTimeout      time.Duration
}

// stepNameRE is what a step name may look like: it becomes part of artifact
// file names and log headers.
var stepNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:@/+-]{0,127}$`)

// envKeyRE is a portable environment variable name.
var envKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// validate checks the request's shape; every error wraps ErrInvalidRequest
// and says what to change.
func (r *Request) validate() error {
	if r.RunID == "" {
		return fmt.Errorf("%w: run_id is empty", ErrInvalidRequest)
	}
	if len(r.Steps) == 0 {
		return fmt.Errorf("%w: the pipeline has no steps: nothing to run", ErrInvalidRequest)
	}
	seen := make(map[string]bool, len(r.Steps))
	for i := range r.Steps {
		s := &r.Steps[i]
		if err := s.validate(r.Image); err != nil {
			return fmt.Errorf("%w: step %d (%q): %w", ErrInvalidRequest, i+1, s.Name, err)
		}
		if seen[s.Name] {
			return fmt.Errorf("%w: step name %q is used twice; names must be unique", ErrInvalidRequest, s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

func (s *Step) validate(defaultImage string) error {
	switch {
	case !stepNameRE.MatchString(s.Name):
		return fmt.Errorf("name must match %s", stepNameRE)
	case strings.TrimSpace(s.Command) == "":
		return fmt.Errorf("command is empty")
	case strings.ContainsRune(s.Command, 0):
		return fmt.Errorf("command contains a NUL byte")
	case s.Image == "" && defaultImage == "":
		return fmt.Errorf("no image: set pipeline.image or step.image")
	case s.Network && !s.Install:
		return fmt.Errorf("only install steps may have network egress; drop network or make it an install step")
	case s.Timeout < 0:
		return fmt.Errorf("negative timeout %s", s.Timeout)
	}
	if _, err := cleanRel(s.Workdir); err != nil {
		return fmt.Errorf("workdir: %w", err)
	}
	for _, p := range append(append([]string(nil), s.CacheKeyFiles...), s.CachePaths...) {
		if c, err := cleanRel(p); err != nil || c == "." {
			return fmt.Errorf("cache path %q must be a relative path inside the workdir", p)
		}
	}
	for _, p := range s.ReportFiles {
		if !reportPathOK(p) {
			return fmt.Errorf("report file %q must be a clean absolute path under %s, %s or %s", p, TmpDir, WorkspaceDir, HomeDir)
		}
	}
	for k, v := range s.Env {
		if !envKeyRE.MatchString(k) {
			return fmt.Errorf("env: %q is not a valid variable name", k)
		}
		if strings.ContainsRune(v, 0) {
			return fmt.Errorf("env: %s contains a NUL byte", k)
		}
	}
	return nil
}

// imageOf returns the image a step runs in.
func (r *Request) imageOf(s *Step) string {
	if s.Image != "" {
		return s.Image
	}
	return r.Image
}

// cleanRel cleans a workspace-relative path and refuses anything that could
// leave the workspace. "" means the root and is returned as ".".
func cleanRel(p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path contains a NUL byte")
	}
	if path.IsAbs(p) || strings.HasPrefix(p, "\\") {
		return "", fmt.Errorf("%q is absolute; use a path relative to the workspace root", p)
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%q leaves the workspace", p)
	}
	return c, nil
}

// usesCache reports whether a step takes part in dependency caching.
func (s *Step) usesCache() bool {
	return s.Install && len(s.CachePaths) > 0 && len(s.CacheKeyFiles) > 0
}

// reportPathOK says whether p is a report file path greenlight collects.
func reportPathOK(p string) bool {
	if !path.IsAbs(p) || path.Clean(p) != p {
		return false
	}
	if isReportPattern(p) {
		// A pattern only in the file name: TEST-*.xml in one directory.
		dir, base := path.Split(p)
		if _, err := path.Match(base, ""); err != nil || isReportPattern(dir) {
			return false
		}
	}
	for _, root := range []string{TmpDir, WorkspaceDir, HomeDir} {
		if strings.HasPrefix(p, root+"/") {
			return true
		}
	}
	return false
}
