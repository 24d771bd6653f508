package gocache

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestNewStore(t *testing.T) {
	root := t.TempDir()
	gocache, l1, l2, file := filepath.Join(root, "gocache"), filepath.Join(root, "l1"), filepath.Join(root, "l2"), filepath.Join(root, "file")
	for _, d := range []string{gocache, l1, l2} {
		os.Mkdir(d, 0o755)
	}
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		name      string
		env       map[string]string
		layers    []string
		verifyMax int64
		err       string
	}{
		{"layers in order", map[string]string{"GOCACHE": gocache, EnvLayers: l1 + ":" + l2}, []string{l1, l2}, DefaultVerifyMax, ""},
		{"missing, relative, file, empty and $GOCACHE itself skipped",
			map[string]string{"GOCACHE": gocache, EnvLayers: "::" + filepath.Join(root, "missing") + ":rel:" + file + ":" + gocache + "/:" + l2},
			[]string{l2}, DefaultVerifyMax, ""},
		{"no layers", map[string]string{"GOCACHE": gocache}, nil, DefaultVerifyMax, ""},
		{"verify max set", map[string]string{"GOCACHE": gocache, EnvVerifyMax: "0"}, nil, 0, ""},
		{"verify max not a number", map[string]string{"GOCACHE": gocache, EnvVerifyMax: "1M"}, nil, 0, EnvVerifyMax},
		{"verify max negative", map[string]string{"GOCACHE": gocache, EnvVerifyMax: "-1"}, nil, 0, EnvVerifyMax},
		{"relative GOCACHE", map[string]string{"GOCACHE": "cache"}, nil, 0, "absolute"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewStore(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Dir != gocache || !reflect.DeepEqual(s.Layers, tc.layers) || s.VerifyMax != tc.verifyMax {
				t.Errorf("store %+v, want dir %s layers %q verify max %d", s, gocache, tc.layers, tc.verifyMax)
			}
		})
	}
}

func TestMainArguments(t *testing.T) {
	var stderr bytes.Buffer
	if code := Main([]string{"serve"}, func(string) string { return "" }, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	env := map[string]string{"GOCACHE": "relative"}
	if code := Main(nil, func(k string) string { return env[k] }, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 1 || !strings.Contains(stderr.String(), "absolute") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
