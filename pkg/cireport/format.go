package cireport

import (
	"fmt"
	"io"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Format names an output format.
type Format string

// The formats Write knows.
const (
	JUnit    Format = "junit"
	CTRF     Format = "ctrf"
	SARIF    Format = "sarif"
	GitHub   Format = "github"
	Markdown Format = "markdown"
)

// Formats lists every format, in the order help texts show them.
func Formats() []Format { return []Format{JUnit, CTRF, SARIF, GitHub, Markdown} }

// FormatNames is Formats joined with ", " for messages.
func FormatNames() string {
	names := make([]string, 0, len(Formats()))
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// ParseFormat checks a format name (case-insensitive).
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, known := range Formats() {
		if f == known {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q: use one of %s", s, FormatNames())
}

// Options tune the output.
type Options struct {
	// Version is greenlight's version (SARIF driver, CTRF tool); "" omits it.
	Version string
	// ReportURL links the run's report page (Markdown, job summary); "" for none.
	ReportURL string
	// StepSummary is the file GitHub names in $GITHUB_STEP_SUMMARY: with
	// the github format the Markdown report is appended to it. "" writes
	// no summary.
	StepSummary string
	// PathPrefix is the verified directory relative to the repository
	// root (RepoPrefix): every file path is written under it, so
	// annotations, SARIF locations and test files name repository-root
	// paths. "" when the workspace is the repository root.
	PathPrefix string
}

// Write renders run in format f to w.
func Write(w io.Writer, f Format, run *glv1.Run, opts Options) error {
	run = rebase(run, opts.PathPrefix)
	switch f {
	case JUnit:
		return WriteJUnit(w, run)
	case CTRF:
		return WriteCTRF(w, run, opts)
	case SARIF:
		return WriteSARIF(w, run, opts)
	case GitHub:
		if err := WriteGitHub(w, run); err != nil {
			return err
		}
		return AppendStepSummary(opts.StepSummary, run, opts)
	case Markdown:
		return WriteMarkdown(w, run, opts)
	}
	_, err := ParseFormat(string(f))
	return err
}
