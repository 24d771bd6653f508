package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stubServeVerify stands in for `greenlight serve` (it prints the line the
// script reads the gateway address from, then waits to be killed) and for
// `greenlight verify --json` in both modes: it records each call's mode and
// repository in $STUB_CALLS and prints a result chosen by the repository's
// name (the work directory is WORK/NAME/greenlight); red FAILs only through
// serve, so the row must show both verdicts; mixed's first timed embedded
// verification is an ERROR (an engine slow under load), so the row must say
// the timed runs disagreed.
const stubServeVerify = `#!/usr/bin/env bash
if [[ $1 == serve ]]; then
	echo "greenlight: serving; gateway 127.0.0.1:1 (reports http://127.0.0.1:11), loop 127.0.0.1:4; data in x"
	exec sleep 300
fi
[[ $1 == --version ]] && { echo "greenlight stub"; exit 0; }
mode=embedded addr=
if [[ $1 == --addr ]]; then mode=serve addr=$2; fi
dir=${@: -1}
name=$(basename "$(dirname "$dir")")
echo "$mode $addr $name" >>"$STUB_CALLS"
if [[ $name == red && $mode == serve ]]; then echo '{"status":"FAIL"}'; exit 1; fi
if [[ $name == mixed && $mode == embedded && $(grep -c "embedded  mixed" "$STUB_CALLS") == 2 ]]; then
	echo '{"status":"ERROR"}'; exit 2
fi
echo '{"status":"PASS"}'
`

// TestBenchRealworldScriptTable runs scripts/bench-realworld.sh with a stub
// greenlight over host rows: a row per list line with the host command's
// and both modes' medians and ratios, the verdicts (serve's when it differs),
// timed runs whose verdicts differ counted, a failing host command named,
// a missing checkout listed rather than
// aborting; one warm-up and BENCH_RUNS timed verifications per mode, the
// serve ones at the address serve printed; the median ratio lines.
func TestBenchRealworldScriptTable(t *testing.T) {
	for _, tool := range []string{"bash", "jq", "timeout", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	corpora := t.TempDir()
	for _, name := range []string{"green", "red", "broken", "mixed"} {
		if err := os.MkdirAll(filepath.Join(corpora, "c", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(corpora, "c", name, "main.txt"), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stub := filepath.Join(t.TempDir(), "greenlight")
	if err := os.WriteFile(stub, []byte(stubServeVerify), 0o755); err != nil {
		t.Fatal(err)
	}
	calls := filepath.Join(t.TempDir(), "calls")
	list := filepath.Join(t.TempDir(), "list.txt")
	// Every host command sleeps: the table shows seconds to 1/100, and a
	// command that rounds to 0.00 has no ratio.
	body := "# name | checkout | host | setup | reset | test\n" +
		"green | c/green | host | touch setup-ran | - | test -f setup-ran && grep -q green main.txt && sleep 0.03\n" +
		"red | c/red | host | - | rm -f x | sleep 0.03\n" +
		"broken | c/broken | host | - | - | sleep 0.03; exit 3\n" +
		"mixed | c/mixed | host | - | - | sleep 0.03\n" +
		"gone | c/gone | host | - | - | true\n"
	if err := os.WriteFile(list, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "bench-realworld.sh"))
	cmd := exec.Command("bash", script, list)
	cmd.Env = append(os.Environ(), "GREENLIGHT="+stub, "BENCH_CORPORA="+corpora, "BENCH_RUNS=2",
		"BENCH_WORK="+t.TempDir(), "STUB_CALLS="+calls, "BENCH_TIMEOUT=60")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench-realworld.sh failed: %v\n%s", err, out)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) == 9 {
			rows[cells[0]] = cells
		}
	}
	for _, c := range []struct {
		name    string
		verdict string
		timed   bool
	}{
		{"green", "PASS", true},
		{"red", "PASS (serve FAIL)", true},
		{"broken", "PASS; host command: exit 3", true},
		{"mixed", "1 PASS, 1 ERROR (serve PASS)", true},
		{"gone", "no checkout at " + filepath.Join(corpora, "c", "gone"), false},
	} {
		r, ok := rows[c.name]
		if !ok {
			t.Errorf("no row for %s\n%s", c.name, out)
			continue
		}
		if r[8] != c.verdict {
			t.Errorf("%s: verdict %q, want %q", c.name, r[8], c.verdict)
		}
		for i := 3; i <= 7; i++ {
			if got := r[i] != "-"; got != c.timed {
				t.Errorf("%s: cell %d = %q, want a figure: %v", c.name, i, r[i], c.timed)
			}
		}
	}
	raw, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		count[line]++
	}
	for _, name := range []string{"green", "red", "broken", "mixed"} {
		if n := count["embedded  "+name]; n != 3 {
			t.Errorf("%s: %d embedded verifications, want 3 (a warm-up and 2 timed)", name, n)
		}
		if n := count["serve 127.0.0.1:1 "+name]; n != 3 {
			t.Errorf("%s: %d verifications through serve's gateway, want 3\n%s", name, n, raw)
		}
	}
	for _, want := range []string{"over 4 repositories", "median over the 1 where greenlight (both) said PASS and the host command passed", "load average before", "load average after"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
}

// TestBenchSummaryTable feeds scripts/bench-summary.sh logs of a bench run:
// each of issue 25's figures is read from its bench's own output and judged
// against its target, and a figure whose bench did not run says so.
func TestBenchSummaryTable(t *testing.T) {
	full := strings.Join([]string{
		"machine: 2 cores, load average before 1.00 2.00 3.00",
		"BenchmarkEventThroughput/fsync/one-run-sequential-2   2768   1.000 events/commit   1564 events/s   4.5 load1",
		"BenchmarkEventThroughput/fsync/8-runs-burst+1-watcher-each-2   186847   1015 events/commit   161691 events/s   3.9 load1   1985 one_tx_per_event/s   81.44 x_one_tx_per_event",
		"BenchmarkEventThroughput/fsync/64-runs-sequential+1-watcher-each-2   18171   39.72 events/commit   10955 events/s   3.5 load1   1481 one_tx_per_event/s   7.399 x_one_tx_per_event",
		"pass@1 1; median time-to-green / host test command: 8.60x over 5 green tasks whose host command ran",
		"BenchmarkWarmVerifyVsDockerRun-2   10   1 ns/op   40.00 warm-verify-ms/op   288.0 docker-run-true-ms/op   0.0900 x-docker-run",
		"BenchmarkFixRoundVsColdVerify/calc+5s-suite-2   3   9000 cold-verify-ms/op   12.10 x-faster-rolled-back",
		"BenchmarkFixRoundVsColdVerify/calc+vendored-deps-2   3   9000 cold-verify-ms/op   4.000 x-faster-rolled-back",
		"BenchmarkOneShotVerifyVsDockerRun-2   5   1 ns/op   300.0 oneshot-ms/op   280.0 docker-run-true-ms/op   1.100 x-docker-run",
		"| testify-cmp | host | 0.50 | 0.45 | 1.49 | 2.65 | 3.31 | 5.89 | PASS |",
		"| go-humanize | host | 0.50 | 1.00 | 1.10 | 1.15 | 1.10 | 1.15 | PASS |",
		"| chi | host | 0.50 | 2.00 | 2.10 | 2.20 | 1.05 | 1.10 | PASS |",
		"machine: load average after 4.00 5.00 6.00",
	}, "\n") + "\n"
	for _, c := range []struct {
		name string
		log  string
		want []string
	}{
		{"every figure", full, []string{
			"| 0.0900× (40.00 ms vs 288.0 ms) | ≤ 0.1× | yes |",
			"| 1.100× (300.0 ms vs 280.0 ms, BenchmarkOneShotVerifyVsDockerRun) | ≤ 1.2× | yes |",
			"testify-cmp: 3.31× serve, 5.89× embedded (host 0.45 s, serve 1.49 s, embedded 2.65 s; PASS) | ≤ 1.2× | **no** |",
			"go-humanize: 1.10× serve, 1.15× embedded (host 1.00 s, serve 1.10 s, embedded 1.15 s; PASS); chi: 1.05× serve, 1.10× embedded (host 2.00 s, serve 2.10 s, embedded 2.20 s; PASS) | ≤ 1.2× | yes |",
			"| 12.10× (5 s suite), 4.000× (vendored deps) | ≥ 10× | **no** |",
			"| 8.60× over 5 green tasks whose host command ran | ≤ 2× | **no** |",
			"| 10955/s with 64 runs each waiting for every append's commit (7.399× one transaction per event, measured alongside); 8 runs appending in bursts: 161691/s; one run waiting for each: 1564/s | ≥ 10,000/s, none lost on a crash | yes |",
			"- machine: 2 cores, load average before 1.00 2.00 3.00",
			"- machine: load average after 4.00 5.00 6.00",
		}},
		{"nothing ran", "machine: 2 cores, load average before 1 1 1\n", []string{
			"| not measured in this run (bench-fleet) | ≤ 0.1× | - |",
			"| not measured in this run (bench-oneshot) | ≤ 1.2× | - |",
			"testify-cmp: not measured in this run (bench-reverify) | ≤ 1.2× | - |",
			"| not measured in this run (bench-loop) | ≤ 2× | - |",
			"| not measured in this run (bench-events) | ≥ 10,000/s, none lost on a crash | - |",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "bench.log")
			if err := os.WriteFile(log, []byte(c.log), 0o644); err != nil {
				t.Fatal(err)
			}
			script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "bench-summary.sh"))
			out, err := exec.Command("bash", script, log).CombinedOutput()
			if err != nil {
				t.Fatalf("bench-summary.sh failed: %v\n%s", err, out)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("summary lacks %q\n%s", w, out)
				}
			}
		})
	}
}
