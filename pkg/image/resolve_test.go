package image

import (
	"errors"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/rust"
)

func TestResolve(t *testing.T) {
	tests := []struct {
		name        string
		runtime     string
		overrides   []Table
		want        Ref
		wantErr     error
		wantOffline bool
	}{
		{name: "default go", runtime: "go",
			want: Ref{Runtime: Go, Image: OfflineGo, Source: SourceDefault}, wantOffline: true},
		{name: "alias default", runtime: "nodejs",
			want: Ref{Runtime: Node, Image: OfflineNode, Source: SourceDefault}, wantOffline: true},
		{name: "config overrides default", runtime: "python", overrides: []Table{{Python: "python:3.12-slim"}},
			want: Ref{Runtime: Python, Image: "python:3.12-slim", Source: SourceOverride}},
		{name: "request overrides config", runtime: "go",
			overrides: []Table{{Go: "golang:1.25"}, {Go: "registry.local:5000/go@sha256:" + strings.Repeat("ab", 32)}},
			want:      Ref{Runtime: Go, Image: "registry.local:5000/go@sha256:" + strings.Repeat("ab", 32), Source: SourceOverride}},
		{name: "override naming the default image", runtime: "go", overrides: []Table{{Go: OfflineGo}},
			want: Ref{Runtime: Go, Image: OfflineGo, Source: SourceOverride}, wantOffline: true},
		{name: "default rust", runtime: "cargo",
			want: Ref{Runtime: rust.Name, Image: rust.OfflineImage, Source: SourceDefault}, wantOffline: true},
		{name: "default cpp", runtime: "c",
			want: Ref{Runtime: Cpp, Image: OfflineCpp, Source: SourceDefault}, wantOffline: true},
		{name: "default java", runtime: "maven",
			want: Ref{Runtime: Java, Image: OfflineJava, Source: SourceDefault}, wantOffline: true},
		{name: "default generic", runtime: "shell",
			want: Ref{Runtime: Generic, Image: OfflineGeneric, Source: SourceDefault}, wantOffline: true},
		{name: "upstream rust configured", runtime: "rust", overrides: []Table{{"rust": "rust:1-slim"}},
			want: Ref{Runtime: "rust", Image: "rust:1-slim", Source: SourceOverride}},
		{name: "configured new runtime", runtime: "haskell", overrides: []Table{{"haskell": "haskell:9"}},
			want: Ref{Runtime: "haskell", Image: "haskell:9", Source: SourceOverride}},
		{name: "unknown runtime", runtime: "haskell", wantErr: ErrUnknownRuntime},
		{name: "bad override", runtime: "go", overrides: []Table{{Go: "--privileged"}}, wantErr: ErrInvalidReference},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(tt.runtime, tt.overrides...)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Resolve error = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Fatalf("Resolve = %+v, want %+v", got, tt.want)
			}
			if err == nil && got.Offline() != tt.wantOffline {
				t.Errorf("Offline() = %v, want %v", got.Offline(), tt.wantOffline)
			}
			if got.String() != tt.want.Image {
				t.Errorf("String() = %q, want %q", got.String(), tt.want.Image)
			}
		})
	}
}

func TestMissing(t *testing.T) {
	tests := []struct {
		name  string
		ref   Ref
		hints []string
	}{
		{"offline image", Ref{Runtime: Go, Image: OfflineGo}, []string{"`make images IMAGES=go`", "release archive's directory (bash scripts/ensure-docker.sh && bash images/build.sh go)", OfflineGo}},
		{"offline rust image", Ref{Runtime: rust.Name, Image: rust.OfflineImage},
			[]string{`runtime "rust"`, "`make images IMAGES=rust`", "images/build.sh rust", rust.OfflineImage}},
		// A polyglot run's step may name another runtime's offline image:
		// the command builds the image's own recipe.
		{"another runtime's offline image", Ref{Runtime: Generic, Image: OfflineJava},
			[]string{"`make images IMAGES=java`", "images/build.sh java"}},
		{"upstream image", Ref{Runtime: Python, Image: "python:3.12-slim"},
			[]string{"docker pull python:3.12-slim", "images.python", OfflinePython, "`make images IMAGES=python`"}},
		{"runtime without offline image", Ref{Runtime: "haskell", Image: "haskell:9"},
			[]string{"docker pull haskell:9", "images.haskell to an image the engine has"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Missing(tt.ref)
			if !errors.Is(err, ErrImageMissing) {
				t.Fatalf("Missing = %v, want ErrImageMissing", err)
			}
			for _, h := range tt.hints {
				if !strings.Contains(err.Error(), h) {
					t.Errorf("error %q does not mention %q", err, h)
				}
			}
			if tt.ref.Runtime == "haskell" && strings.Contains(err.Error(), "such as") {
				t.Errorf("error %q suggests an offline image that does not exist", err)
			}
		})
	}
}
