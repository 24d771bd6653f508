package e2e_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// BenchmarkFixRoundVsColdVerify: fix rounds whose patches leave the
// dependencies unchanged, on a stack whose executor keeps a warm pool of
// one sandbox per image (as `greenlight fix` and serve run), against a cold
// verification of the same project on a fresh stack (empty dependency
// cache, no warm pool), in the same run.
// Round 1's patch fixes nothing (fail-fast rolls it back after the failing
// test alone ran, the install restored from the dependency cache); round
// 2's fixes the bug (the probe, then the full pipeline, both from the
// cache). Three projects: the tiny calc one (nothing to install, two
// tests), calc with a 5 s suite (a test sleeping, standing for a larger
// suite) and calc with real dependencies: three vendored wheels of 400
// modules each that pip installs (offline, --no-index) into .venv.
func BenchmarkFixRoundVsColdVerify(b *testing.B) {
	slowSuite := withFiles(map[string]string{
		"tests/test_suite.py": "import time\n\n\ndef test_rest_of_the_suite():\n    time.sleep(5)\n",
	})
	deps := withFiles(vendoredDeps(3, 400))
	for _, c := range []struct {
		name  string
		files map[string]string
	}{{"calc", enginetest.CalcFiles}, {"calc+5s-suite", slowSuite}, {"calc+vendored-deps", deps}} {
		b.Run(c.name, func(b *testing.B) { benchFixRound(b, c.files) })
	}
}

func benchFixRound(b *testing.B, files map[string]string) {
	var rolledBack, accepted, cold time.Duration
	n := 0
	for b.Loop() {
		s := newPooledStack(b)
		prov, _ := s.commandProvider(b, enginetest.BreakingPatch, enginetest.FixPatch)
		evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(files), Options: &glv1.FixOptions{Provider: prov}})
		if fin := finished(evs); fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
			b.Fatalf("the fix run ended %s: %s", fin.GetStatus(), fin.GetResult().GetSummary())
		}
		rounds := roundTimes(b, evs)
		rolledBack += rounds[0]
		accepted += rounds[1]
		c := newStack(b)
		start := time.Now()
		if fin := finished(c.verify(&glv1.VerifyRequest{Snapshot: c.snapshot(files)})); fin.GetResult() == nil {
			b.Fatalf("the cold verification has no result: %v", fin)
		}
		cold += time.Since(start)
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(cold), "cold-verify-ms/op")
	b.ReportMetric(ms(rolledBack), "rolled-back-round-ms/op")
	b.ReportMetric(ms(accepted), "accepted-round-ms/op")
	b.ReportMetric(float64(cold)/float64(rolledBack), "x-faster-rolled-back")
	b.ReportMetric(float64(cold)/float64(accepted), "x-faster-accepted")
}

// roundTimes are the two rounds' durations, RoundStarted to
// PatchEvaluated; the first must have been rolled back by the probe.
func roundTimes(b *testing.B, evs []*glv1.RunEvent) []time.Duration {
	var started time.Time
	var out []time.Duration
	for _, ev := range evs {
		if ev.GetRoundStarted() != nil {
			started = ev.GetTime().AsTime()
		}
		if o := ev.GetPatchEvaluated().GetOutcome(); o != nil {
			if len(out) == 0 && o.GetRule() != "still-failing" {
				b.Fatalf("the breaking patch was not rolled back by the probe: %v", o)
			}
			out = append(out, ev.GetTime().AsTime().Sub(started))
		}
	}
	if len(out) != 2 {
		b.Fatalf("%d rounds, want 2", len(out))
	}
	return out
}

// withAll is the union of file sets (later ones win).
func withAll(sets ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, set := range sets {
		for k, v := range set {
			out[k] = v
		}
	}
	return out
}

// vendoredDeps are a requirements.txt that installs n vendored wheels
// offline, the wheels, and a test importing them.
func vendoredDeps(n, modules int) map[string]string {
	files := map[string]string{}
	req := []string{"--no-index", "--find-links vendor"}
	var imports []string
	for i := range n {
		name := fmt.Sprintf("benchdep%d", i)
		files["vendor/"+name+"-1.0-py3-none-any.whl"] = wheel(name, modules)
		req = append(req, name+"==1.0")
		imports = append(imports, "import "+name+".m0")
	}
	files["requirements.txt"] = strings.Join(req, "\n") + "\n"
	files["tests/test_deps.py"] = strings.Join(imports, "\n") + "\n\n\ndef test_deps_import():\n    pass\n"
	return files
}

// wheel is a pure-Python wheel of package name with modules modules of
// about 4 KB each (pip unpacks and byte-compiles every one).
func wheel(name string, modules int) string {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	var record []string
	add := func(path, body string) {
		w, err := z.Create(path)
		if err != nil {
			panic(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			panic(err)
		}
		sum := sha256.Sum256([]byte(body))
		record = append(record, fmt.Sprintf("%s,sha256=%s,%d", path, base64.RawURLEncoding.EncodeToString(sum[:]), len(body)))
	}
	add(name+"/__init__.py", "")
	for m := range modules {
		var src strings.Builder
		for f := range 40 {
			fmt.Fprintf(&src, "def f%d(x):\n    \"\"\"Function %d of module %d.\"\"\"\n    return [x * %d + i for i in range(%d)]\n\n\n", f, f, m, f, m%7+1)
		}
		add(fmt.Sprintf("%s/m%d.py", name, m), src.String())
	}
	info := name + "-1.0.dist-info/"
	add(info+"METADATA", "Metadata-Version: 2.1\nName: "+name+"\nVersion: 1.0\n")
	add(info+"WHEEL", "Wheel-Version: 1.0\nGenerator: greenlight-bench\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
	record = append(record, info+"RECORD,,")
	w, err := z.Create(info + "RECORD")
	if err == nil {
		_, err = w.Write([]byte(strings.Join(record, "\n") + "\n"))
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		panic(err)
	}
	return buf.String()
}
