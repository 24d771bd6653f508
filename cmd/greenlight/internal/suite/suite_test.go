package suite

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestPassAtK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64
	}{
		{n: 1, c: 1, k: 1, want: 1},
		{n: 1, c: 0, k: 1, want: 0},
		{n: 5, c: 2, k: 1, want: 0.4},       // c/n
		{n: 5, c: 2, k: 5, want: 1},         // any 5 of 5 include a pass
		{n: 4, c: 1, k: 2, want: 0.5},       // 1 - C(3,2)/C(4,2) = 1 - 3/6
		{n: 10, c: 3, k: 3, want: 0.708333}, // 1 - C(7,3)/C(10,3) = 1 - 35/120
		{n: 3, c: 0, k: 4, want: 0},         // k > n: undefined, reported as 0
	}
	for _, tc := range tests {
		if got := PassAtK(tc.n, tc.c, tc.k); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("PassAtK(n=%d, c=%d, k=%d) = %f, want %f", tc.n, tc.c, tc.k, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		wantErr bool
		check   func(t *testing.T, s *Suite, dir string)
	}{
		{name: "defaults", yaml: "provider: {kind: command, command: ./p.sh}\ncases:\n  - dir: cases/a\n", check: func(t *testing.T, s *Suite, dir string) {
			if s.Samples != 1 || len(s.K) != 1 || s.K[0] != 1 {
				t.Errorf("samples=%d k=%v, want 1 and [1]", s.Samples, s.K)
			}
			if s.Cases[0].Dir != filepath.Join(dir, "cases/a") || s.Cases[0].Name != "a" {
				t.Errorf("case = %+v: dir must be relative to the suite file", s.Cases[0])
			}
		}},
		{name: "samples give pass@n", yaml: "samples: 3\nprovider: {kind: replay, recording_id: r_1}\ncases: [{dir: x}]\n", check: func(t *testing.T, s *Suite, _ string) {
			if len(s.K) != 2 || s.K[1] != 3 {
				t.Errorf("k = %v, want [1 3]", s.K)
			}
		}},
		{name: "client provider", yaml: "provider: {kind: client}\ncases: [{dir: x}]\n", wantErr: true},
		{name: "no cases", yaml: "provider: {kind: command, command: x}\n", wantErr: true},
		{name: "k over samples", yaml: "samples: 2\nk: [5]\nprovider: {kind: command, command: x}\ncases: [{dir: x}]\n", wantErr: true},
		{name: "not yaml", yaml: "cases: [", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "suite.yaml")
			if err := os.WriteFile(p, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(p)
			if tc.wantErr {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("Load error = %v, want ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s, dir)
		})
	}
}
