package display

import (
	"testing"
)

// goTestJSON is what `go test -json` printed for a package with a failing
// subtest and a build error in another package.
const goTestJSON = `{"ImportPath":"example.com/svc/broken","Action":"build-output","Output":"# example.com/svc/broken\n"}
{"ImportPath":"example.com/svc/broken","Action":"build-output","Output":"broken/b.go:3:1: syntax error: non-declaration statement outside function body\n"}
{"ImportPath":"example.com/svc/broken","Action":"build-fail"}
{"Time":"2026-11-22T09:30:00Z","Action":"start","Package":"example.com/svc/route"}
{"Time":"2026-11-22T09:30:00Z","Action":"run","Package":"example.com/svc/route","Test":"TestMatch"}
{"Time":"2026-11-22T09:30:00Z","Action":"output","Package":"example.com/svc/route","Test":"TestMatch","Output":"=== RUN   TestMatch\n"}
{"Time":"2026-11-22T09:30:00Z","Action":"output","Package":"example.com/svc/route","Test":"TestMatch","Output":"    route_test.go:25: Match(\"/a\") = false, want true\n"}
{"Time":"2026-11-22T09:30:00Z","Action":"output","Package":"example.com/svc/route","Test":"TestMatch","Output":"--- FAIL: TestMatch (0.00s)\n"}
{"Time":"2026-11-22T09:30:00Z","Action":"fail","Package":"example.com/svc/route","Test":"TestMatch","Elapsed":0}
not json: a line the tee added
{"Time":"2026-11-22T09:30:00Z","Action":"output","Package":"example.com/svc/route","Output":"FAIL\texample.com/svc/route\t0.004s\n"}
{"Time":"2026-11-22T09:30:00Z","Action":"fail","Package":"example.com/svc/route","Elapsed":0.004}
`

func TestGoTestTextRendersEventsAsText(t *testing.T) {
	want := "# example.com/svc/broken\n" +
		"broken/b.go:3:1: syntax error: non-declaration statement outside function body\n" +
		"=== RUN   TestMatch\n" +
		"    route_test.go:25: Match(\"/a\") = false, want true\n" +
		"--- FAIL: TestMatch (0.00s)\n" +
		"not json: a line the tee added\n" +
		"FAIL\texample.com/svc/route\t0.004s\n"
	if got := GoTestText(goTestJSON); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGoTestTextKeepsOtherLogs(t *testing.T) {
	for _, log := range []string{
		"FAILED tests/test_a.py::test_b - assert 1 == 2\n",
		`{"level":"info","msg":"a JSON log line that is no test2json event"}` + "\n",
		"",
	} {
		if got := GoTestText(log); got != log {
			t.Errorf("GoTestText(%q) = %q, want it unchanged", log, got)
		}
	}
}

func TestGoTestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"Action":"output","Output":"ok  \tx\t0.1s\n"}` + "\n", "ok  \tx\t0.1s\n"},
		{`{"Action":"pass","Test":"TestA"}`, ""},
		{`{"Action":"output","Output":"partial `, `{"Action":"output","Output":"partial `},
		{"plain\n", "plain\n"},
		{`{"msg":"no action"}`, `{"msg":"no action"}`},
	}
	for _, tt := range tests {
		if got := GoTestLine(tt.in); got != tt.want {
			t.Errorf("GoTestLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if !MayHoldGoTestJSON(goTestJSON) || MayHoldGoTestJSON("plain text") {
		t.Error("MayHoldGoTestJSON misjudges")
	}
}
