package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// readmeSpelling is a README block of the "Two JSON spellings" section:
// the marker names the spelling (cli or api), then a ```json block.
var readmeSpelling = regexp.MustCompile("(?s)<!-- json-spelling: (\\w+) -->\n```json\n(.*?)```")

// Value shapes in the README's examples: an enum value (its spelling is
// the claim, so it must be the same), a proto JSON duration, and a 64-bit
// integer that proto JSON writes as a string.
var (
	enumValue     = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	protoDuration = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?s$`)
	int64String   = regexp.MustCompile(`^-?[0-9]+$`)
	// The two spellings of field names.
	snakeCase      = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	lowerCamelCase = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
)

// TestReadmeJSONSpellings runs examples/fail through `greenlight serve`
// and checks the README's two blocks against what really comes out: the
// cli block against `greenlight verify --json`, the api block against
// RunService/GetRun of the same run over HTTP/JSON and through grpcurl.
// Every name of a block must be in the output at that place, every enum
// value spelled the same, every number a number and every duration or
// 64-bit integer of proto JSON a string of that form.
func TestReadmeJSONSpellings(t *testing.T) {
	requireDocker(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]any{}
	for _, m := range readmeSpelling.FindAllSubmatch(b, -1) {
		var v any
		if err := json.Unmarshal(m[2], &v); err != nil {
			t.Fatalf("README's %s JSON block does not parse: %v\n%s", m[1], err, m[2])
		}
		blocks[string(m[1])] = v
	}
	if blocks["cli"] == nil || blocks["api"] == nil {
		t.Fatalf("README.md lacks its <!-- json-spelling: cli --> and <!-- json-spelling: api --> blocks (found %d)", len(blocks))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u := newUser(t)
	s := startServe(t, ctx, u)
	m := servingLine.FindStringSubmatch(firstServingLine(s.output()))
	if m == nil {
		t.Fatalf("no serving line in serve's output:\n%s", s.output())
	}
	reports := "http://" + m[2]

	res := u.run(nil, "--addr", s.gateway, "verify", "--json", examples("fail"))
	res.wantExit(t, 1, "verify --json examples/fail")
	var cli map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &cli); err != nil {
		t.Fatalf("verify --json: %v\n%s", err, res.stdout)
	}
	if errs := matchExample(blocks["cli"], cli, "$"); len(errs) > 0 {
		t.Errorf("README's cli block does not match `greenlight verify --json`:\n  %s", strings.Join(errs, "\n  "))
	}
	if bad := namesNotMatching(cli, snakeCase); len(bad) > 0 {
		t.Errorf("verify --json has names that are not snake_case: %v", bad)
	}
	runID, _ := cli["run_id"].(string)

	req := fmt.Sprintf(`{"runId": %q}`, runID)
	httpOut := postJSON(t, reports+"/greenlight.v1.RunService/GetRun", req)
	if errs := matchExample(blocks["api"], httpOut, "$"); len(errs) > 0 {
		t.Errorf("README's api block does not match HTTP/JSON GetRun:\n  %s", strings.Join(errs, "\n  "))
	}
	if bad := namesNotMatching(httpOut, lowerCamelCase); len(bad) > 0 {
		t.Errorf("HTTP/JSON GetRun has names that are not lowerCamelCase: %v", bad)
	}

	grpcurl := grpcurlPath(t)
	out, err := exec.CommandContext(ctx, grpcurl, "-plaintext", "-d", req, s.gateway, "greenlight.v1.RunService/GetRun").CombinedOutput()
	if err != nil {
		t.Fatalf("grpcurl GetRun: %v\n%s", err, out)
	}
	var grpcOut any
	if err := json.Unmarshal(out, &grpcOut); err != nil {
		t.Fatalf("grpcurl printed no JSON: %v\n%s", err, out)
	}
	if errs := matchExample(blocks["api"], grpcOut, "$"); len(errs) > 0 {
		t.Errorf("README's api block does not match grpcurl's GetRun:\n  %s", strings.Join(errs, "\n  "))
	}
	if bad := namesNotMatching(grpcOut, lowerCamelCase); len(bad) > 0 {
		t.Errorf("grpcurl's GetRun has names that are not lowerCamelCase: %v", bad)
	}
}

// firstServingLine is serve's "greenlight: serving; …" line.
func firstServingLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "greenlight: serving;") {
			return l
		}
	}
	return ""
}

// postJSON posts body to an HTTP/JSON method and decodes the answer.
func postJSON(t *testing.T, url, body string) any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d %v\n%s", url, resp.StatusCode, err, b)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("POST %s answered no JSON: %v\n%s", url, err, b)
	}
	return v
}

// grpcurlPath is .bin/grpcurl (make tools), else grpcurl on PATH.
func grpcurlPath(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", ".bin", "grpcurl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, err = exec.LookPath("grpcurl"); err != nil {
		t.Fatal("no grpcurl in .bin/ or on PATH: run make tools")
	}
	return p
}

// matchExample lists where got differs from the README's example want:
// each key of an example object must be in got's object; an example
// array's element must match some element of got's array; an enum value
// must be equal; a proto JSON duration or 64-bit integer must be a string
// of that form; other strings (ids, paths, hashes) only strings; numbers,
// booleans and null of the same kind.
func matchExample(want, got any, at string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want an object, got %s", at, kind(got))}
		}
		var errs []string
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: no field %q (fields: %s)", at, k, keys(g)))
				continue
			}
			errs = append(errs, matchExample(wv, gv, at+"."+k)...)
		}
		return errs
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want an array, got %s", at, kind(got))}
		}
		var errs []string
		for i, wv := range w {
			var best []string
			for _, gv := range sameNameFirst(wv, g) {
				e := matchExample(wv, gv, fmt.Sprintf("%s[%d]", at, i))
				if len(e) == 0 {
					best = nil
					break
				}
				if best == nil || len(e) < len(best) {
					best = e
				}
			}
			if len(g) == 0 {
				best = []string{fmt.Sprintf("%s: the output's array is empty", at)}
			}
			errs = append(errs, best...)
		}
		return errs
	case string:
		g, ok := got.(string)
		switch {
		case !ok:
			return []string{fmt.Sprintf("%s: want a string like %q, got %s %v", at, w, kind(got), got)}
		case enumValue.MatchString(w) && g != w:
			return []string{fmt.Sprintf("%s: enum value %q, the output says %q", at, w, g)}
		case protoDuration.MatchString(w) && !protoDuration.MatchString(g):
			return []string{fmt.Sprintf("%s: a duration like %q, the output says %q", at, w, g)}
		case int64String.MatchString(w) && !int64String.MatchString(g):
			return []string{fmt.Sprintf("%s: a 64-bit integer as a string like %q, the output says %q", at, w, g)}
		}
		return nil
	case float64, bool, nil:
		if kind(want) != kind(got) {
			return []string{fmt.Sprintf("%s: want a %s like %v, got %s %v", at, kind(want), want, kind(got), got)}
		}
		return nil
	}
	return []string{fmt.Sprintf("%s: unexpected example value %v", at, want)}
}

// namesNotMatching lists the paths of the object field names in v that
// name does not match.
func namesNotMatching(v any, name *regexp.Regexp) []string {
	var bad []string
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if !name.MatchString(k) {
					bad = append(bad, at+"."+k)
				}
				walk(c, at+"."+k)
			}
		case []any:
			for _, c := range x {
				walk(c, at+"[]")
			}
		}
	}
	walk(v, "$")
	slices.Sort(bad)
	return slices.Compact(bad)
}

// sameNameFirst orders an output array for matching an example element:
// elements with the example's "name" first, so a difference is reported
// against the step the example shows.
func sameNameFirst(example any, out []any) []any {
	name := ""
	if m, ok := example.(map[string]any); ok {
		name, _ = m["name"].(string)
	}
	var same, other []any
	for _, v := range out {
		if m, ok := v.(map[string]any); ok && name != "" && m["name"] == name {
			same = append(same, v)
		} else {
			other = append(other, v)
		}
	}
	return append(same, other...)
}

// kind names a decoded JSON value's type.
func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// keys lists an object's field names, sorted, for messages.
func keys(m map[string]any) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

// TestMatchExample: the comparison behind TestReadmeJSONSpellings finds a
// wrong name, a wrong enum spelling, a number where proto JSON writes a
// string, and a duration that is not one; ids and paths may differ.
func TestMatchExample(t *testing.T) {
	out := `{"run": {"id": "r_2", "status": "RUN_STATUS_FAILED", "result": {"steps": [
		{"name": "compileall", "status": "STEP_STATUS_OK", "exitCode": 0},
		{"name": "pytest", "status": "STEP_STATUS_FAILED", "exitCode": 1, "duration": "0.9s", "logDigest": {"sizeBytes": "1681"}}]}}}`
	tests := []struct {
		name, example string
		wantErr       string
	}{
		{"same names and spellings, other ids", `{"run": {"id": "r_1", "result": {"steps": [{"name": "pytest", "status": "STEP_STATUS_FAILED", "exitCode": 1,
			"duration": "0.997s", "logDigest": {"sizeBytes": "20"}}]}}}`, ""},
		{"snake_case name", `{"run": {"result": {"steps": [{"exit_code": 1}]}}}`, `no field "exit_code"`},
		{"short enum", `{"run": {"status": "FAILED"}}`, `enum value "FAILED"`},
		{"64-bit integer as a number", `{"run": {"result": {"steps": [{"name": "pytest", "logDigest": {"sizeBytes": 1681}}]}}}`, "want a number"},
		{"duration in milliseconds", `{"run": {"result": {"steps": [{"name": "pytest", "duration": 997}]}}}`, "want a number"},
		{"a step no output has", `{"run": {"result": {"steps": [{"name": "pytest", "status": "STEP_STATUS_TIMED_OUT"}]}}}`, `enum value "STEP_STATUS_TIMED_OUT"`},
	}
	var got any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want any
			if err := json.Unmarshal([]byte(tt.example), &want); err != nil {
				t.Fatal(err)
			}
			errs := strings.Join(matchExample(want, got, "$"), "\n")
			if tt.wantErr == "" && errs != "" {
				t.Errorf("unexpected differences:\n%s", errs)
			}
			if tt.wantErr != "" && !strings.Contains(errs, tt.wantErr) {
				t.Errorf("differences %q, want one saying %q", errs, tt.wantErr)
			}
		})
	}
}
