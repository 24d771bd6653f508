package sandbox

import (
	"strings"
	"testing"
)

func TestShadowOf(t *testing.T) {
	tests := []struct {
		name, wd, want string
	}{
		{"pip/__main__.py", ".", "pip/"},
		{"pip/__init__.py", ".", "pip/"},
		{"setuptools/__init__.py", ".", "setuptools/"},
		{"pytest/__main__.py", ".", "pytest/"},
		{"_pytest/x.py", ".", "_pytest/"},
		{"sitecustomize.py", ".", "sitecustomize.py"},
		{"usercustomize.pyc", ".", "usercustomize.pyc"},
		{"pip.cpython-311-x86_64-linux-gnu.so", ".", "pip.cpython-311-x86_64-linux-gnu.so"},
		{"zz_hook.pth", ".", "zz_hook.pth"},
		{"src/pluggy/__init__.py", ".", "pluggy/"},
		{"src/sitecustomize.py", ".", "sitecustomize.py"},
		{"svc/wheel/__init__.py", "svc", "wheel/"},
		{"svc/src/pip/__main__.py", "svc", "pip/"},
		// Not at the top of the workdir (or its src/): a package's own
		// submodule, a test helper, another subproject.
		{"mypkg/pip/__init__.py", ".", ""},
		{"tests/pytest/conftest.py", ".", ""},
		{"other/pip/__main__.py", "svc", ""},
		{"svc/lib/x.pth", "svc", ""},
		// Ordinary names.
		{"pipeline.py", ".", ""},
		{"pytest.ini", ".", ""},
		{"pip", ".", ""},
		{"setup.py", ".", ""},
		{"mypkg/__init__.py", ".", ""},
		{"pytest_plugins.py", ".", ""},
	}
	for _, tt := range tests {
		if got := shadowOf(tt.name, tt.wd); got != tt.want {
			t.Errorf("shadowOf(%q, %q) = %q, want %q", tt.name, tt.wd, got, tt.want)
		}
	}
}

func TestShadowNote(t *testing.T) {
	sc := &cacheScan{workdirs: []string{".", "svc"}}
	for _, n := range []string{"pip/__main__.py", "pip/__init__.py", "README.md", "svc/sitecustomize.py", "svc/app.py"} {
		sc.observeShadow(n)
	}
	if got := sc.shadowNote("."); !strings.Contains(got, "the workspace holds pip/ (") || strings.Contains(got, "sitecustomize") {
		t.Errorf("root note %q", got)
	}
	if got := sc.shadowNote("svc"); !strings.Contains(got, "svc/ holds sitecustomize.py (") || strings.Contains(got, "pip/") {
		t.Errorf("svc note %q", got)
	}
	if got := (&cacheScan{workdirs: []string{"."}}).shadowNote("."); got != "" {
		t.Errorf("a clean workspace has note %q", got)
	}
}
