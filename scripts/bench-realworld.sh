#!/usr/bin/env bash
# bench-realworld.sh times greenlight against the maintainers' own test
# command on a warm host, repository by repository, in one alternating run
# (these machines are shared and noisy: only figures measured together
# mean something), and prints a Markdown table with the ratios.
#
# For each list line the checkout is copied twice into a work directory
# (one copy for the host command, one for greenlight, so neither sees the
# other's build outputs). Then, untimed: the line's setup command once, the
# host command once (the warm-up), one embedded and one serve verification
# (they warm greenlight's caches). Then BENCH_RUNS rounds, each timing the
# host command, `greenlight verify --addr SERVE DIR` and the embedded
# `greenlight verify DIR` (the order rotates per round); a row shows each
# one's median. Nothing changes between the runs: this is the re-verify
# with unchanged dependencies of issue 25.
#
# The warm host. Go runs on this machine's toolchain with its module and
# build caches as they are (`go vet ./... && go test -count=1 ./...`:
# -count=1 because a verification must really run the tests; go test's
# result cache would replay an old result). Other languages run where
# their tools are: one long-lived container of the line's sandbox image per
# repository (the workspace bind-mounted, the line's setup, e.g.
# `npm install`, run once in it, the host's CA bundle mounted as
# NODE_EXTRA_CA_CERTS), each timed run a `docker exec` into it: a
# developer machine with the project's dependencies installed. The line's
# reset command runs untimed before every timed host run (C: `make clean`,
# so the host builds from a clean tree as greenlight does from a snapshot).
#
# Usage: scripts/bench-realworld.sh [LIST]
#   LIST  default docs/bench-realworld.txt: lines
#         `name | checkout | host | setup | reset | test command`
#         checkout: a directory under BENCH_CORPORA (corpus/pflag), or
#         gen:testify-cmp (a Go module with testify and go-cmp written here);
#         host: `host` (this machine) or a sandbox image;
#         setup, reset: commands, `-` for none.
# Environment:
#   GREENLIGHT     the binary (default .bin/greenlight, `make build`)
#   BENCH_CORPORA  where checkouts are (default /work)
#   BENCH_RUNS     timed rounds per repository (default 3)
#   BENCH_ONLY     space-separated names to run (default: every line)
#   BENCH_WORK     work directory (default: a new temporary one, removed at
#                  the end unless BENCH_KEEP=1)
#   BENCH_TIMEOUT  seconds per command (default 900)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$root/docs/bench-realworld.txt}
gl=${GREENLIGHT:-$root/.bin/greenlight}
corpora=${BENCH_CORPORA:-/work}
runs=${BENCH_RUNS:-3}
limit=${BENCH_TIMEOUT:-900}
ca=/etc/ssl/certs/ca-certificates.crt

[[ -x $gl ]] || { echo "bench-realworld: $gl not found: run make build" >&2; exit 2; }
[[ -f $list ]] || { echo "bench-realworld: no list $list" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench-realworld: jq is required" >&2; exit 2; }
if [[ -n ${BENCH_WORK:-} ]]; then
	work=$BENCH_WORK
	mkdir -p "$work"
else
	work=$(mktemp -d /tmp/greenlight-bench.XXXXXX)
fi
work=$(cd "$work" && pwd)
log=$work/logs
mkdir -p "$log"
# A copy of the binary: other sessions rebuild .bin/ while a bench runs, and
# every figure of a run must come from one binary.
cp "$gl" "$work/greenlight"
gl=$work/greenlight

serve_pid=
containers=()
cleanup() {
	if [[ -n $serve_pid ]]; then
		kill "$serve_pid" 2>/dev/null || true
		wait "$serve_pid" 2>/dev/null || true
	fi
	local c
	for c in "${containers[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
	if [[ ${BENCH_KEEP:-} != 1 && -z ${BENCH_WORK:-} ]]; then
		rm -rf "$work" 2>/dev/null || true
	fi
}
trap cleanup EXIT

trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$1"; }
now() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }

# gen_testify_cmp DIR writes a Go module that requires testify and go-cmp
# with tests using both (issue 25's re-verify row), its go.sum from the
# module proxy (or this machine's module cache).
gen_testify_cmp() {
	local dir=$1
	mkdir -p "$dir"
	cat >"$dir/go.mod" <<-'EOF'
	module example.com/benchdeps

	go 1.22

	require (
		github.com/google/go-cmp v0.7.0
		github.com/stretchr/testify v1.11.1
	)
	EOF
	cat >"$dir/shapes.go" <<-'EOF'
	// Package benchdeps is a small module whose tests use testify and go-cmp.
	package benchdeps

	import "sort"

	// Shape is a named polygon.
	type Shape struct {
		Name  string
		Sides int
		Tags  []string
	}

	// Sorted returns the shapes ordered by sides, then name.
	func Sorted(in []Shape) []Shape {
		out := append([]Shape(nil), in...)
		sort.Slice(out, func(i, j int) bool {
			if out[i].Sides != out[j].Sides {
				return out[i].Sides < out[j].Sides
			}
			return out[i].Name < out[j].Name
		})
		return out
	}

	// Perimeter is the perimeter of a regular polygon with the given side.
	func Perimeter(s Shape, side float64) float64 { return float64(s.Sides) * side }
	EOF
	cat >"$dir/shapes_test.go" <<-'EOF'
	package benchdeps

	import (
		"testing"

		"github.com/google/go-cmp/cmp"
		"github.com/stretchr/testify/assert"
		"github.com/stretchr/testify/require"
	)

	func TestSorted(t *testing.T) {
		got := Sorted([]Shape{{Name: "square", Sides: 4}, {Name: "triangle", Sides: 3}, {Name: "rhombus", Sides: 4}})
		want := []Shape{{Name: "triangle", Sides: 3}, {Name: "rhombus", Sides: 4}, {Name: "square", Sides: 4}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Sorted() mismatch (-want +got):\n%s", diff)
		}
	}

	func TestPerimeter(t *testing.T) {
		for _, c := range []struct {
			shape Shape
			side  float64
			want  float64
		}{{Shape{Sides: 3}, 2, 6}, {Shape{Sides: 4}, 1.5, 6}, {Shape{Sides: 6}, 1, 6}} {
			assert.InDelta(t, c.want, Perimeter(c.shape, c.side), 1e-9)
		}
	}

	func TestSortedKeepsInput(t *testing.T) {
		in := []Shape{{Name: "b", Sides: 2, Tags: []string{"x"}}, {Name: "a", Sides: 1}}
		_ = Sorted(in)
		require.Len(t, in, 2)
		assert.Equal(t, "b", in[0].Name)
	}
	EOF
	(cd "$dir" && go mod tidy >/dev/null 2>&1) || (cd "$dir" && GOFLAGS=-mod=mod GOPROXY=off go mod tidy)
}

# checkout NAME SPEC prints the directory to copy for a list line.
checkout() {
	local name=$1 spec=$2
	case $spec in
	gen:testify-cmp)
		local dir=$work/src/$name
		[[ -f $dir/go.sum ]] || gen_testify_cmp "$dir" >&2
		echo "$dir"
		;;
	/*) echo "$spec" ;;
	*) echo "$corpora/$spec" ;;
	esac
}

# start_serve starts one `greenlight serve` on free loopback ports with its
# own home and sets addr to its gateway.
addr=
start_serve() {
	"$gl" serve --home "$work/home-serve" --listen 127.0.0.1:0 --log-level error >"$log/serve.log" 2>&1 &
	serve_pid=$!
	local i
	for i in $(seq 1 300); do
		addr=$(sed -n 's/^greenlight: serving; gateway \([^ ]*\) .*/\1/p' "$log/serve.log" | head -n1)
		[[ -n $addr ]] && return 0
		kill -0 "$serve_pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "bench-realworld: greenlight serve did not start:" >&2
	cat "$log/serve.log" >&2
	exit 2
}

# host_cmd NAME KIND DIR CMD runs a command of the warm host: on this
# machine in DIR, or in NAME's container. Its output goes to the log; its
# wall time in nanoseconds to $work/host.ns, measured where it runs (in the
# container: without docker exec's own start, which a developer typing the
# command does not pay).
host_cmd() {
	local name=$1 kind=$2 dir=$3 cmd=$4
	echo 0 >"$work/host.ns"
	[[ $cmd == - || -z $cmd ]] && return 0
	# shellcheck disable=SC2016 # expanded where the command runs
	local timed='s=$(date +%s%N); bash -c "$1"; rc=$?; echo $(($(date +%s%N) - s)) >&3; exit $rc'
	if [[ $kind == host ]]; then
		(cd "$dir" && timeout "$limit" bash -c "$timed" timed "$cmd" 3>"$work/host.ns") >>"$log/$name.host.log" 2>&1
	else
		timeout "$limit" docker exec "glbench-$name-$$" bash -c "exec 3>/tmp/glbench.ns; $timed" timed "$cmd" >>"$log/$name.host.log" 2>&1 || {
			local rc=$?
			docker exec "glbench-$name-$$" cat /tmp/glbench.ns >"$work/host.ns" 2>/dev/null || true
			return $rc
		}
		docker exec "glbench-$name-$$" cat /tmp/glbench.ns >"$work/host.ns"
	fi
}

# host_container NAME IMAGE DIR starts NAME's long-lived container.
host_container() {
	local name=$1 image=$2 dir=$3 c="glbench-$1-$$"
	chown -R 10001:10001 "$dir" 2>/dev/null || true
	local extra=()
	[[ -f $ca ]] && extra=(-v "$ca:/etc/ssl/certs/host-ca.crt:ro" -e NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca.crt)
	docker run -d --name "$c" -v "$dir:/workspace" -w /workspace "${extra[@]}" --entrypoint sleep "$image" infinity >/dev/null
	containers+=("$c")
}

# verify MODE DIR OUT runs one verification (MODE serve or embedded),
# writes its JSON result to OUT and prints its wall time in nanoseconds.
verify() {
	local mode=$1 dir=$2 out=$3 start end
	local args=(verify --json --quiet --color never "$dir")
	[[ $mode == serve ]] && args=(--addr "$addr" "${args[@]}")
	start=$(now)
	GREENLIGHT_HOME=$work/home-embedded timeout "$limit" "$gl" "${args[@]}" >"$out" 2>>"$log/$(basename "$out" .json).err" || true
	end=$(now)
	echo $((end - start))
}

# status prints a result's verdict (or NO-JSON).
status() { jq -er .status "$1" 2>/dev/null || echo NO-JSON; }

# verdicts prints the timed runs' verdict, or each verdict with its count
# when they differ (an ERROR under load: its time is in the median, the row
# says so).
verdicts() {
	local counts
	counts=$(printf '%s\n' "$@" | sort | uniq -c | sort -rn | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')
	if [[ $(printf '%s\n' "$@" | sort -u | wc -l) == 1 ]]; then echo "$1"; else echo "$counts"; fi
}

start_serve
echo "machine: $(nproc) cores, load average before $(load); $(go version 2>/dev/null | cut -d' ' -f3-4); greenlight $("$gl" --version 2>/dev/null | head -n1)"
echo "greenlight serve at $addr (warm pool), embedded with its own home; each row: setup and one run of each untimed (warm-up), then the median of $runs alternating timed runs"
echo "host: Go = this machine's toolchain, \`go vet ./... && go test -count=1 ./...\` (-count=1: a verification must really run the tests, go test's result cache would replay an old result); an image name = a long-lived container of that image with the dependencies installed once, one docker exec per timed run, timed inside the container"
echo
echo "| repository | host | load1 | host s | serve s | embedded s | serve/host | embedded/host | verdict |"
echo "|---|---|---|---|---|---|---|---|---|"
serve_ratios=() embedded_ratios=() pass_serve=() pass_embedded=()
while IFS='|' read -r -u 3 name spec kind setup reset cmd; do
	name=$(trim "$name")
	[[ -z $name || $name == \#* ]] && continue
	if [[ -n ${BENCH_ONLY:-} && " $BENCH_ONLY " != *" $name "* ]]; then
		continue
	fi
	spec=$(trim "$spec") kind=$(trim "$kind") setup=$(trim "$setup") reset=$(trim "$reset") cmd=$(trim "$cmd")
	load1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
	src=$(checkout "$name" "$spec")
	if [[ ! -d $src ]]; then
		echo "| $name | $kind | $load1 | - | - | - | - | - | no checkout at $src |"
		continue
	fi
	hdir=$work/$name/host gdir=$work/$name/greenlight
	rm -rf "$work/$name" && mkdir -p "$work/$name"
	cp -a "$src" "$hdir" && cp -a "$src" "$gdir"
	[[ $kind == host ]] || host_container "$name" "$kind" "$hdir"
	: >"$log/$name.host.log"
	hostnote=ok
	host_cmd "$name" "$kind" "$hdir" "$setup" || hostnote="setup failed"
	host_cmd "$name" "$kind" "$hdir" "$reset" || true
	host_cmd "$name" "$kind" "$hdir" "$cmd" || hostnote="exit $?"
	verify embedded "$gdir" "$log/$name.embedded.json" >/dev/null
	verify serve "$gdir" "$log/$name.serve.json" >/dev/null
	h=() s=() e=() sall=() eall=()
	for ((i = 0; i < runs; i++)); do
		for k in 0 1 2; do
			case $(((i + k) % 3)) in
			0)
				host_cmd "$name" "$kind" "$hdir" "$reset" || true
				host_cmd "$name" "$kind" "$hdir" "$cmd" || hostnote="exit $?"
				h+=("$(secs "$(<"$work/host.ns")")")
				;;
			1)
				s+=("$(secs "$(verify serve "$gdir" "$log/$name.serve.json")")")
				sall+=("$(status "$log/$name.serve.json")")
				;;
			2)
				e+=("$(secs "$(verify embedded "$gdir" "$log/$name.embedded.json")")")
				eall+=("$(status "$log/$name.embedded.json")")
				;;
			esac
		done
	done
	hs=$(printf '%s\n' "${h[@]}" | median) ss=$(printf '%s\n' "${s[@]}" | median) es=$(printf '%s\n' "${e[@]}" | median)
	sr=$(ratio "$ss" "$hs") er=$(ratio "$es" "$hs")
	ev=$(verdicts "${eall[@]}") sv=$(verdicts "${sall[@]}")
	verdict=$ev
	[[ $sv == "$ev" ]] || verdict="$ev (serve $sv)"
	[[ $hostnote == ok ]] || verdict="$verdict; host command: $hostnote"
	echo "| $name | $kind | $load1 | $hs | $ss | $es | $sr | $er | $verdict |"
	[[ $sr != - ]] && serve_ratios+=("$sr")
	[[ $er != - ]] && embedded_ratios+=("$er")
	if [[ $ev == PASS && $sv == PASS && $hostnote == ok ]]; then
		[[ $sr != - ]] && pass_serve+=("$sr")
		[[ $er != - ]] && pass_embedded+=("$er")
	fi
	if [[ $kind != host ]]; then
		docker rm -f "glbench-$name-$$" >/dev/null 2>&1 || true
	fi
	rm -rf "$work/$name" 2>/dev/null || true
done 3<"$list"
echo
med() { if (($# > 0)); then printf '%s\n' "$@" | median; else echo "-"; fi; }
echo "median serve/host $(med "${serve_ratios[@]}")x, embedded/host $(med "${embedded_ratios[@]}")x over ${#serve_ratios[@]} repositories"
echo "median over the ${#pass_serve[@]} where greenlight (both) said PASS and the host command passed: serve/host $(med "${pass_serve[@]}")x, embedded/host $(med "${pass_embedded[@]}")x"
echo "machine: load average after $(load)"
