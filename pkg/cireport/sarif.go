package cireport

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// sarifSchema is the OASIS schema the log declares (SARIF 2.1.0 with
// errata 01, the version GitHub code scanning accepts).
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// informationURI is greenlight's home page.
const informationURI = "https://github.com/greenlight-dev/greenlight"

// The SARIF 2.1.0 subset greenlight writes.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool         `json:"tool"`
	AutomationDetails sarifAutomation   `json:"automationDetails"`
	Invocations       []sarifInvocation `json:"invocations"`
	Results           []sarifResult     `json:"results"`
	Properties        map[string]any    `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int32 `json:"startLine"`
	StartColumn int32 `json:"startColumn,omitempty"`
}

// ruleText describes each failure kind (a SARIF rule).
var ruleText = map[glv1.FailureKind]string{
	glv1.FailureKind_FAILURE_KIND_UNSPECIFIED:    "A check failed",
	glv1.FailureKind_FAILURE_KIND_COMPILE:        "The code does not compile",
	glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION: "A test assertion failed",
	glv1.FailureKind_FAILURE_KIND_TEST_ERROR:     "A test raised an error",
	glv1.FailureKind_FAILURE_KIND_LINT:           "A linter reported a problem",
	glv1.FailureKind_FAILURE_KIND_TYPECHECK:      "The type checker reported an error",
	glv1.FailureKind_FAILURE_KIND_TIMEOUT:        "A step ran out of time",
	glv1.FailureKind_FAILURE_KIND_OOM:            "A step ran out of memory",
	glv1.FailureKind_FAILURE_KIND_CRASH:          "A process crashed",
	glv1.FailureKind_FAILURE_KIND_INSTALL:        "Installing dependencies failed",
	glv1.FailureKind_FAILURE_KIND_SECURITY:       "A security scanner reported a finding",
}

// WriteSARIF writes run as a SARIF 2.1.0 log with one rule per failure
// kind and one result per failure that has a file: level error, or
// warning for an advisory check and a flaky test. Failures without a
// file, failed steps without failures and an ERROR verdict's reason are
// tool execution notifications (code scanning needs a location for a
// result).
func WriteSARIF(w io.Writer, run *glv1.Run, opts Options) error {
	b, err := json.MarshalIndent(sarifDoc(run, opts), "", "  ")
	if err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	return nil
}

// sarifDoc builds the log.
func sarifDoc(run *glv1.Run, opts Options) sarifLog {
	res := run.GetResult()
	sr := sarifRun{
		Tool:              sarifTool{Driver: sarifDriver{Name: "greenlight", Version: opts.Version, InformationURI: informationURI, Rules: []sarifRule{}}},
		AutomationDetails: sarifAutomation{ID: "greenlight/" + run.GetId()},
		Results:           []sarifResult{},
		Properties:        map[string]any{"runId": run.GetId(), "verdict": verdictWord(res.GetStatus()), "level": levelWord(res.GetLevel())},
	}
	if sc := res.GetScore(); sc != nil {
		sr.Properties["score"] = sc.GetTotal()
	}
	sarifCoverage(sr.Properties, res)
	// The tool ran as it should when it reached a verdict on the code.
	v := res.GetStatus()
	inv := sarifInvocation{ExecutionSuccessful: v == glv1.Verdict_VERDICT_PASS || v == glv1.Verdict_VERDICT_FAIL}
	rules := map[string]int{}
	for _, f := range res.GetFailures() {
		lvl := failureLevel(res, f)
		if f.GetFile() == "" {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: lvl, Message: sarifText{clean(failureText(f))}})
			continue
		}
		rule := ruleOfFailure(f)
		idx, ok := rules[rule.ID]
		if !ok {
			idx = len(sr.Tool.Driver.Rules)
			rules[rule.ID] = idx
			sr.Tool.Driver.Rules = append(sr.Tool.Driver.Rules, rule)
		}
		sr.Results = append(sr.Results, sarifResultOf(f, idx, lvl, sr.Tool.Driver.Rules[idx].ID))
	}
	inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, stepNotifications(run)...)
	sr.Invocations = []sarifInvocation{inv}
	return sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{sr}}
}

// ruleOf is the rule for a failure kind.
func ruleOf(k glv1.FailureKind) sarifRule {
	word := strings.ToLower(kindWord(k))
	name := ""
	for _, part := range strings.Split(word, "_") {
		name += strings.ToUpper(part[:1]) + part[1:]
	}
	return sarifRule{ID: strings.ReplaceAll(word, "_", "-"), Name: name, ShortDescription: sarifText{ruleText[k]},
		DefaultConfiguration: sarifConfig{Level: "error"}}
}

// ruleOfFailure is a failure's rule: its kind's, or for a security
// finding with a scanner rule, that rule ("security/B602",
// "security/private-key"), so code scanning groups findings by what they
// are.
func ruleOfFailure(f *glv1.Failure) sarifRule {
	if f.GetKind() != glv1.FailureKind_FAILURE_KIND_SECURITY || f.GetRule() == "" {
		return ruleOf(f.GetKind())
	}
	r := clean(f.GetRule())
	return sarifRule{ID: "security/" + r, Name: "Security" + strings.ReplaceAll(r, "-", ""),
		ShortDescription:     sarifText{"Security finding " + r + " (" + ruleText[glv1.FailureKind_FAILURE_KIND_SECURITY] + ")"},
		DefaultConfiguration: sarifConfig{Level: severityLevel(f.GetSeverity())}}
}

// severityLevel is a security severity's SARIF level.
func severityLevel(sev string) string {
	switch sev {
	case "high":
		return "error"
	case "medium":
		return "warning"
	}
	return "note"
}

// sarifResultOf converts a failure with a file.
func sarifResultOf(f *glv1.Failure, ruleIndex int, level, ruleID string) sarifResult {
	r := sarifResult{
		RuleID: ruleID, RuleIndex: ruleIndex, Level: level, Message: sarifText{clean(failureText(f))},
		Locations:           []sarifLocation{physical(f.GetFile(), f.GetLine(), f.GetColumn())},
		PartialFingerprints: map[string]string{"greenlightFailure/v1": fingerprint(f)},
		Properties:          map[string]any{"step": f.GetEvidence().GetStep(), "kind": kindWord(f.GetKind())},
	}
	if t := f.GetTest(); t != "" {
		r.Properties["test"] = clean(t)
	}
	if f.GetFlaky() {
		r.Properties["flaky"] = true
	}
	if f.GetKind() == glv1.FailureKind_FAILURE_KIND_SECURITY {
		r.Properties["severity"] = f.GetSeverity()
		if f.GetIntroduced() {
			r.Properties["introduced"] = true
		}
	}
	for _, fr := range f.GetFrames() {
		if !fr.GetProject() || fr.GetFile() == "" || (fr.GetFile() == f.GetFile() && fr.GetLine() == f.GetLine()) {
			continue
		}
		loc := physical(fr.GetFile(), fr.GetLine(), fr.GetColumn())
		id := len(r.RelatedLocations) + 1
		loc.ID = &id
		if fn := fr.GetFunction(); fn != "" {
			loc.Message = &sarifText{clean(fn)}
		}
		r.RelatedLocations = append(r.RelatedLocations, loc)
	}
	return r
}

// physical is a location in the workspace.
func physical(file string, line, col int32) sarifLocation {
	p := sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(file)}}
	if line > 0 {
		p.Region = &sarifRegion{StartLine: line}
		if col > 0 {
			p.Region.StartColumn = col
		}
	}
	return sarifLocation{PhysicalLocation: p}
}

// fileURI turns a workspace-relative path into a relative URI reference
// (code scanning resolves it against the repository root); an absolute
// path becomes a file URI.
func fileURI(file string) string {
	file = strings.ReplaceAll(file, "\\", "/")
	if strings.HasPrefix(file, "/") {
		return (&url.URL{Scheme: "file", Path: path.Clean(file)}).String()
	}
	return (&url.URL{Path: strings.TrimPrefix(path.Clean(file), "./")}).String()
}

// failureText is a failure's message, saying which test or step it is.
func failureText(f *glv1.Failure) string {
	msg := strings.TrimSpace(f.GetMessage())
	if msg == "" {
		msg = ruleText[f.GetKind()]
	}
	if t := f.GetTest(); t != "" {
		return fmt.Sprintf("test %s failed: %s", t, msg)
	}
	if s := f.GetEvidence().GetStep(); s != "" {
		return fmt.Sprintf("step %s: %s", s, msg)
	}
	return msg
}

// failureLevel is error, or warning for an advisory step's failure and a
// flaky test.
func failureLevel(res *glv1.Result, f *glv1.Failure) string {
	if f.GetKind() == glv1.FailureKind_FAILURE_KIND_SECURITY {
		// A finding's level is its severity's; an advisory scan's findings
		// are at most warnings.
		lvl := severityLevel(f.GetSeverity())
		if lvl == "error" && stepOptional(res, f.GetEvidence().GetStep()) {
			lvl = "warning"
		}
		return lvl
	}
	if f.GetFlaky() || stepOptional(res, f.GetEvidence().GetStep()) {
		return "warning"
	}
	return "error"
}

// stepOptional reports whether the named step is advisory.
func stepOptional(res *glv1.Result, name string) bool {
	for _, s := range res.GetSteps() {
		if s.GetName() == name {
			return s.GetOptional()
		}
	}
	return false
}

// stepNotifications report failed steps that no failure explains, and
// why a run ended in ERROR.
func stepNotifications(run *glv1.Run) []sarifNotification {
	res := run.GetResult()
	explained := map[string]bool{}
	for _, f := range res.GetFailures() {
		explained[f.GetEvidence().GetStep()] = true
	}
	var out []sarifNotification
	for _, s := range res.GetSteps() {
		if !stepBad(s) || explained[s.GetName()] {
			continue
		}
		lvl := "error"
		if s.GetOptional() {
			lvl = "warning"
		}
		out = append(out, sarifNotification{Level: lvl, Message: sarifText{clean(stepMessage(s, nil))}})
	}
	if res.GetStatus() != glv1.Verdict_VERDICT_PASS && res.GetStatus() != glv1.Verdict_VERDICT_FAIL {
		msg := firstNonEmpty(run.GetError(), res.GetSummary(), "verification ended without a verdict")
		out = append(out, sarifNotification{Level: "error", Message: sarifText{clean("greenlight ERROR: " + msg)}})
	}
	return out
}

// fingerprint identifies a failure across runs: kind, test, file and the
// first line of its message, not its line number (code moves).
func fingerprint(f *glv1.Failure) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{kindWord(f.GetKind()), f.GetTest(), f.GetFile(), firstLine(f.GetMessage())}, "\x00")))
	return hex.EncodeToString(sum[:16])
}
