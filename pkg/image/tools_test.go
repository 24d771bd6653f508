package image

import "testing"

func TestRuntimeForPicksAnImageWithEveryTool(t *testing.T) {
	cases := []struct {
		progs  []string
		prefer string
		want   string
		ok     bool
	}{
		{[]string{"gcc", "git"}, Generic, Cpp, true},
		{[]string{"make"}, Generic, Generic, true}, // every image has make
		{[]string{"cargo"}, Generic, "rust", true}, // a pack's tools
		{[]string{"go", "gcc"}, Go, Go, true},
		{[]string{"gcc", "npm"}, Node, "", false},
		{[]string{"javac", "mvn"}, Python, Java, true},
	}
	for _, tc := range cases {
		got, ok := RuntimeFor(tc.progs, tc.prefer)
		if got != tc.want || ok != tc.ok {
			t.Errorf("RuntimeFor(%v, %s) = %q %v, want %q %v", tc.progs, tc.prefer, got, ok, tc.want, tc.ok)
		}
	}
	if !KnownTool("gcc") || !KnownTool("cargo") || KnownTool("make") || KnownTool("ls") {
		t.Error("KnownTool: gcc and cargo decide an image, make (everywhere) and ls do not")
	}
}
