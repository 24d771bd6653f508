package image

import (
	"errors"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/rust"
)

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"go", Go},
		{" Golang ", Go},
		{"PYTHON3", Python},
		{"py", Python},
		{"nodejs", Node},
		{"typescript", Node},
		{"Rust", rust.Name},
		{"cargo", rust.Name},
		{"C", Cpp},
		{"c++", Cpp},
		{"cxx", Cpp},
		{"CMake", Cpp},
		{"maven", Java},
		{"gradle", Java},
		{"JVM", Java},
		{"shell", Generic},
		{"sh", Generic},
		{"haskell", "haskell"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Canonical(tt.in); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDefaultsAndUpstream(t *testing.T) {
	tests := []struct {
		name  string
		table Table
		want  map[string]string
	}{
		{"defaults", Defaults(), map[string]string{
			Go: "greenlight/sandbox-go:latest", Python: "greenlight/sandbox-python:latest", Node: "greenlight/sandbox-node:latest",
			Generic: "greenlight/sandbox-generic:latest", Cpp: "greenlight/sandbox-cpp:latest",
			rust.Name: "greenlight/sandbox-rust:latest", Java: "greenlight/sandbox-java:latest",
		}},
		{"upstream", Upstream(), map[string]string{Go: "golang:1.26", Python: "python:3.12-slim", Node: "node:20-slim",
			rust.Name: "rust:1-slim", Java: "eclipse-temurin:21-jdk"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.table) != len(tt.want) {
				t.Fatalf("table has %d entries %v, want %d", len(tt.table), tt.table, len(tt.want))
			}
			for r, want := range tt.want {
				if got := tt.table[r]; got != want {
					t.Errorf("%s: got %q, want %q", r, got, want)
				}
			}
			if err := tt.table.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestDefaultsReturnsACopy(t *testing.T) {
	d := Defaults()
	d[Go] = "mutated:1"
	if got := Defaults()[Go]; got != OfflineGo {
		t.Fatalf("Defaults()[go] = %q after mutating an earlier result, want %q", got, OfflineGo)
	}
}

func TestLookup(t *testing.T) {
	table := Table{Go: "golang:1.26", "rust": "rust:1-slim"}
	tests := []struct {
		runtime  string
		want     string
		wantErr  error
		errHints []string
	}{
		{runtime: "go", want: "golang:1.26"},
		{runtime: "Golang", want: "golang:1.26"},
		{runtime: "rust", want: "rust:1-slim"},
		{runtime: "python", wantErr: ErrUnknownRuntime,
			errHints: []string{`"python"`, "`make images IMAGES=python`", "images.python", OfflinePython, "python:3.12-slim", "go, rust"}},
		{runtime: "c++", wantErr: ErrUnknownRuntime,
			errHints: []string{`"cpp"`, "`make images IMAGES=cpp`", "images.cpp", OfflineCpp}},
		{runtime: "haskell", wantErr: ErrUnknownRuntime,
			errHints: []string{"images.haskell", "no offline image", "builds cpp, generic, go, java, node, python, rust"}},
	}
	for _, tt := range tests {
		t.Run(tt.runtime, func(t *testing.T) {
			got, err := table.Lookup(tt.runtime)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Lookup(%q) error = %v, want %v", tt.runtime, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Lookup(%q) = %q, want %q", tt.runtime, got, tt.want)
			}
			for _, h := range tt.errHints {
				if !strings.Contains(err.Error(), h) {
					t.Errorf("error %q does not mention %q", err, h)
				}
			}
		})
	}
}

func TestOfflineRuntimeAndBuildCommand(t *testing.T) {
	for rt, ref := range Defaults() {
		if got, ok := OfflineRuntime(ref); !ok || got != rt {
			t.Errorf("OfflineRuntime(%s) = %q, %v, want %q", ref, got, ok, rt)
		}
		// The image name is the build.sh recipe name the command passes on.
		if want := "greenlight/sandbox-" + rt + ":latest"; ref != want {
			t.Errorf("Defaults()[%s] = %s, want %s (images/%s is its recipe)", rt, ref, want, rt)
		}
	}
	if _, ok := OfflineRuntime("rust:1-slim"); ok {
		t.Error("an upstream image is not an offline one")
	}
	for in, want := range map[string]string{"rust": "make images IMAGES=rust", "C++": "make images IMAGES=cpp",
		"maven": "make images IMAGES=java", "shell": "make images IMAGES=generic"} {
		if got := BuildCommand(in); got != want {
			t.Errorf("BuildCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLookupEmptyTable(t *testing.T) {
	_, err := Table{}.Lookup("go")
	if !errors.Is(err, ErrUnknownRuntime) || !strings.Contains(err.Error(), "configured: none") {
		t.Fatalf("Lookup on empty table = %v, want ErrUnknownRuntime listing none configured", err)
	}
}

func TestMerge(t *testing.T) {
	base := Table{Go: "a:1", Python: "b:1"}
	tests := []struct {
		name      string
		overrides []Table
		want      Table
	}{
		{"no overrides", nil, Table{Go: "a:1", Python: "b:1"}},
		{"override one", []Table{{Go: "golang:1.26"}}, Table{Go: "golang:1.26", Python: "b:1"}},
		{"alias key", []Table{{"Golang": "golang:1.26"}}, Table{Go: "golang:1.26", Python: "b:1"}},
		{"empty value ignored", []Table{{Go: ""}}, Table{Go: "a:1", Python: "b:1"}},
		{"new runtime", []Table{{"rust": "rust:1"}}, Table{Go: "a:1", Python: "b:1", "rust": "rust:1"}},
		{"later wins", []Table{{Go: "x:1"}, {Go: "y:1"}}, Table{Go: "y:1", Python: "b:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := base.Merge(tt.overrides...)
			if len(got) != len(tt.want) {
				t.Fatalf("Merge = %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("Merge[%s] = %q, want %q", k, got[k], v)
				}
			}
		})
	}
	if base[Go] != "a:1" || len(base) != 2 {
		t.Errorf("Merge changed its receiver: %v", base)
	}
}

func TestRuntimesSorted(t *testing.T) {
	got := Table{"node": "n:1", "go": "g:1", "python": "p:1"}.Runtimes()
	want := []string{"go", "node", "python"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Runtimes = %v, want %v", got, want)
	}
}

func TestValidateTable(t *testing.T) {
	err := Table{Go: "golang:1.26", Node: "Node:20"}.Validate()
	if !errors.Is(err, ErrInvalidReference) || !strings.Contains(err.Error(), "images.node") {
		t.Fatalf("Validate = %v, want ErrInvalidReference naming images.node", err)
	}
}
