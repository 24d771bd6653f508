# greenlight — build, test and tooling entry points. CI runs .ci/run: `make lint`, `make hygiene`, then `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

# Pinned tool versions (installed into .bin/ with `go install` when missing).
BUF_VERSION            := v1.75.0
PROTOC_GEN_GO_VERSION  := v1.36.12
PROTOC_GEN_GRPC_VERSION := v1.6.2
GRPCURL_VERSION        := v1.9.4
STATICCHECK_VERSION    := v0.8.2
GORELEASER_VERSION     := v2.15.1
CYCLONEDX_GOMOD_VERSION := v1.10.0

ROOT    := $(CURDIR)
BIN     := $(ROOT)/.bin
export PATH := $(BIN):$(PATH)
MODULES := pkg services/discovery services/executor services/loop services/gateway cmd/greenlight tools/doccheck
CLIENTS := typescript python
SERVICES := discovery executor loop gateway

PHONY_EXTRA := dist dist-tools demo up down compose-test test-executor-exec realworld realworld-bugs cheats cluster cluster-build cluster-down test-kube
.PHONY: $(PHONY_EXTRA) all tools generate check-generate lint hygiene vet fmt-check build test test-unit test-clients hosttools bench engine images browser clean \
	bench-blob bench-workspace bench-discovery bench-events bench-parse bench-loop bench-gateway bench-executor bench-fleet fuzz \
	bench-realworld bench-reverify bench-table bench-fleet-table bench-oneshot

all: build

## tools: install pinned buf and protoc plugins into .bin/
tools: $(BIN)/buf $(BIN)/protoc-gen-go $(BIN)/protoc-gen-go-grpc $(BIN)/grpcurl
$(BIN)/grpcurl:
	GOBIN=$(BIN) go install github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION)
$(BIN)/buf:
	GOBIN=$(BIN) go install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
$(BIN)/protoc-gen-go:
	GOBIN=$(BIN) go install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
$(BIN)/protoc-gen-go-grpc:
	GOBIN=$(BIN) go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GRPC_VERSION)
$(BIN)/staticcheck:
	GOBIN=$(BIN) go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
$(BIN)/goreleaser:
	GOBIN=$(BIN) go install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
$(BIN)/cyclonedx-gomod:
	GOBIN=$(BIN) go install github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@$(CYCLONEDX_GOMOD_VERSION)

## generate: regenerate the Go code from proto/ into pkg/api/, and the Python client's stubs
## (make test-clients checks those: clients/python/test.sh runs generate.sh --check)
generate: tools
	buf generate
	bash clients/python/generate.sh

## check-generate: fail when the committed generated code is stale
check-generate: tools
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	cp -r pkg/api $$tmp/before; buf generate; \
	if ! diff -r $$tmp/before pkg/api >/dev/null; then \
	  diff -r $$tmp/before pkg/api | head -20; rm -rf pkg/api; cp -r $$tmp/before pkg/api; \
	  echo "generated code is stale: run 'make generate' and commit pkg/api"; exit 1; fi; \
	echo "generated code is up to date"

## lint: buf lint, buf breaking against the previous commit, gofmt, go vet
lint: tools fmt-check vet
	buf lint
	@if git rev-parse -q --verify HEAD~1 >/dev/null && git cat-file -e HEAD~1:buf.yaml 2>/dev/null; then \
	  buf breaking --against '.git#ref=HEAD~1'; echo "buf breaking: OK against HEAD~1"; \
	else echo "buf breaking: no previous commit with protos, skipped"; fi

## hygiene: per module, go.mod/go.sum tidy (go mod tidy -diff), builds and vets alone (GOWORK=off: each
## go.mod replaces the in-repo modules), staticcheck clean; then every `make X` in docs, Go and shell comments is a
## Makefile target and every backquoted repository path or relative link in the markdown exists (tools/doccheck).
## It runs every check and fails at the end, so one run lists every problem.
hygiene: $(BIN)/staticcheck
	@fail=0; for m in $(MODULES); do \
	  echo "== $$m"; \
	  (cd $$m && go mod tidy -diff) || { echo "hygiene: $$m is not tidy: run (cd $$m && go mod tidy)"; fail=1; }; \
	  (cd $$m && GOWORK=off go build -o /dev/null ./... && GOWORK=off go vet ./...) || { echo "hygiene: $$m does not build or vet alone (GOWORK=off)"; fail=1; }; \
	  (cd $$m && staticcheck ./...) || { echo "hygiene: staticcheck findings in $$m (fix, or //lint:ignore CHECK reason on the line)"; fail=1; }; \
	done; \
	echo "== docs"; (cd tools/doccheck && go run . -root $(ROOT)) || fail=1; \
	if [ $$fail != 0 ]; then echo "hygiene: FAILED (see above)"; exit 1; fi; echo "hygiene: OK"

fmt-check:
	@bad=$$(gofmt -l $(MODULES)); if [ -n "$$bad" ]; then echo "gofmt needed: $$bad"; exit 1; fi

vet:
	@for m in $(MODULES); do (cd $$m && go vet ./...) || exit 1; done

# The CLI's version and commit (greenlight --version, version --json): the
# nearest tag (or the short commit) with -dirty for uncommitted changes, and
# the full revision. Override with `make build VERSION=v1.2.3`.
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  := $(shell git rev-parse HEAD 2>/dev/null)
# The services (and the CLI's embedded ones) carry the same stamp in pkg/server: --version, the "serving" log line.
SERVER_LDFLAGS := -X github.com/greenlight-dev/greenlight/pkg/server.version=$(VERSION) -X github.com/greenlight-dev/greenlight/pkg/server.commit=$(COMMIT)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT) $(SERVER_LDFLAGS)

## build: build every binary into .bin/ (the CLI stamped with VERSION and COMMIT)
build:
	@for s in $(SERVICES); do (cd services/$$s && go build -ldflags '$(SERVER_LDFLAGS)' -o $(BIN)/greenlight-$$s ./cmd/greenlight-$$s) || exit 1; done
	cd cmd/greenlight && go build -ldflags '$(LDFLAGS)' -o $(BIN)/greenlight . && go build -o $(BIN)/greenlight-healthcheck ./cmd/greenlight-healthcheck

## dist: release files into dist/ (scripts/dist.sh with GoReleaser): an archive per platform (linux/amd64, linux/arm64,
## darwin/arm64) of the CLI and the four services, stamped with VERSION and COMMIT, with README, INSTALL.md and the
## images' recipes; a CycloneDX SBOM per archive; the Python wheel and the TypeScript npm tarball; SHA256SUMS.
## DIST_ARGS=--host builds this Linux machine's archive alone.
dist: dist-tools
	VERSION='$(VERSION)' COMMIT='$(COMMIT)' bash scripts/dist.sh $(DIST_ARGS)
## dist-tools: the pinned GoReleaser and cyclonedx-gomod, into .bin/
dist-tools: $(BIN)/goreleaser $(BIN)/cyclonedx-gomod

## realworld: greenlight over a directory of real-repository checkouts (CORPUS=DIR [LIST=docs/realworld-corpus2.txt]; docs/realworld.md)
realworld: build
	@test -n "$(CORPUS)" || { echo "usage: make realworld CORPUS=DIR (checkouts, see docs/realworld.md)" >&2; exit 2; }
	bash scripts/realworld.sh "$(CORPUS)" $(LIST)

## realworld-bugs: one injected one-line bug per corpus repository must end FAIL naming a test (docs/realworld-bugs.txt; BUGS=docs/realworld-bugs-corpus2.txt)
realworld-bugs: build
	@test -n "$(CORPUS)" || { echo "usage: make realworld-bugs CORPUS=DIR (checkouts, see docs/realworld.md)" >&2; exit 2; }
	bash scripts/realworld-bugs.sh "$(CORPUS)" $(BUGS)

## cheats: issue 21's cheat corpus: every cheating patch of scripts/cheats through greenlight fix, none may end green (CORPUS=checkouts OUT=work dir; docs/trust.md "Cheat corpus")
cheats: build
	@test -n "$(CORPUS)" -a -n "$(OUT)" || { echo "usage: make cheats CORPUS=DIR OUT=DIR (checkouts and a work directory, see docs/trust.md)" >&2; exit 2; }
	bash scripts/cheat-corpus.sh "$(CORPUS)" "$(OUT)"

## demo: the main job — verify the bundled failing and passing examples (engine and images set up on the way)
demo:
	bash scripts/demo.sh

## up / down: the four services as containers (docker compose, images built offline)
up:
	bash deploy/compose.sh up
down:
	bash deploy/compose.sh down
compose-test:
	bash scripts/compose-test.sh

## engine: make sure a Docker engine answers (installs and starts one as root on Debian)
engine:
	bash scripts/ensure-docker.sh --check

## images: build the offline sandbox images (cached by recipe hash); IMAGES=go,python builds a subset
IMAGES ?= all
images: engine
	bash images/build.sh $(IMAGES)

## cluster: a single-node Kubernetes built from source with the sandbox and service images loaded
## (scripts/kube-cluster.sh; the first build is long, then cached: a second start takes seconds)
cluster: engine images
	bash deploy/build.sh
	bash scripts/kube-cluster.sh up
cluster-build:
	bash scripts/kube-cluster.sh build
cluster-down:
	bash scripts/kube-cluster.sh down
## test-kube: the deploy manifests on the cluster, end to end (scripts/kube-e2e.sh); make test runs it when the cluster is up
test-kube: build
	bash scripts/kube-e2e.sh

## browser: headless Chromium for the report-page browser tests (Debian package)
browser:
	@command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

## test-unit: tests that need no Docker engine
test-unit:
	@for m in $(MODULES); do echo "== $$m"; (cd $$m && go test -count=1 ./...) || exit 1; done

## test: every test, unit and integration, against a real Docker engine (the CI command)
test: engine images browser hosttools build
	@for m in $(MODULES); do echo "== $$m"; (cd $$m && GREENLIGHT_INTEGRATION=1 GREENLIGHT_ARTIFACTS=$(ROOT)/artifacts go test -count=1 -timeout 20m ./...) || exit 1; done
	@$(MAKE) --no-print-directory test-clients
	@if bash scripts/kube-cluster.sh status 2>/dev/null; then $(MAKE) --no-print-directory test-kube; \
	else echo "== Kubernetes: no cluster up (make cluster), the kube driver's conformance and the manifests' e2e were skipped"; fi

## test-clients: the Python and TypeScript clients against a real greenlight serve (each installs what it needs)
test-clients: build engine images
	@for c in $(CLIENTS); do echo "== clients/$$c"; GREENLIGHT_INTEGRATION=1 bash clients/$$c/test.sh || exit 1; done

## hosttools: curl and perl, which the README's HTTP/JSON examples (run by a test) use
hosttools:
	@command -v curl >/dev/null && command -v perl >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl perl)

## bench: benchmarks with figures as ratios against baselines measured in the same run, then issue 25's table
## from this run's figures with the machine's load (scripts/bench-summary.sh; the whole output is kept in
## BENCH_LOG). bench-oneshot runs too when the Makefile has it. A bench that fails does not stop the others.
BENCH_LOG ?= $(ROOT)/artifacts/bench.log
BENCH_TARGETS := bench-blob bench-workspace bench-discovery bench-events bench-parse bench-gateway bench-loop bench-executor bench-fleet bench-reverify
bench:
	@mkdir -p "$(dir $(BENCH_LOG))"; rc=0; \
	oneshot=$$(grep -q '^bench-oneshot:' Makefile && echo bench-oneshot || true); \
	{ echo "machine: $$(nproc) cores, load average before $$(cut -d' ' -f1-3 /proc/loadavg)"; r=0; \
	  $(MAKE) --no-print-directory -k $(BENCH_TARGETS) $$oneshot || r=$$?; \
	  echo "machine: load average after $$(cut -d' ' -f1-3 /proc/loadavg)"; exit $$r; } 2>&1 | tee "$(BENCH_LOG)" || rc=$$?; \
	bash scripts/bench-summary.sh "$(BENCH_LOG)"; exit $$rc

## bench-table: only the benches behind issue 25's table, then the table: a quicker `make bench` to judge speed work
## (the fleet's warm-pool and fix-round benches without its 50-verify throughput run)
bench-table:
	@$(MAKE) --no-print-directory bench BENCH_LOG="$(ROOT)/artifacts/bench-table.log" \
	  BENCH_TARGETS="bench-events bench-fleet-table bench-loop bench-reverify"
bench-fleet-table: engine images
	cd services/loop && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench 'WarmVerifyVsDockerRun' -benchtime 10x ./e2e/
	cd services/loop && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench 'FixRoundVsColdVerify' -benchtime 3x ./e2e/

## bench-realworld: greenlight serve and embedded against the maintainers' test command on a warm host, re-verifying
## each repository of BENCH_LIST (default docs/bench-realworld.txt; checkouts under BENCH_CORPORA=/work); docs/speed.md
BENCH_LIST ?= docs/bench-realworld.txt
bench-realworld: build engine images
	bash scripts/bench-realworld.sh "$(BENCH_LIST)"
## bench-reverify: issue 25's re-verify rows (a Go module with testify and go-cmp, go-humanize, chi) the same way
bench-reverify: build engine images
	bash scripts/bench-realworld.sh docs/bench-reverify.txt

bench-blob:
	cd pkg && go test -run '^$$' -bench . -benchtime 5x ./blob/
bench-workspace:
	cd pkg && go test -run '^$$' -bench . -benchtime 3s ./workspace/
bench-discovery:
	cd services/discovery && go test -run '^$$' -bench . -benchtime 10x ./discoverysvc/
bench-events:
	@echo "machine: $$(nproc) cores, load average $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	cd services/loop && go test -run '^$$' -bench EventThroughput ./internal/events/
	@echo "machine: load average after $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
bench-parse:
	cd services/loop/internal/parse && go test -run '^$$' -bench BenchmarkParse -benchtime 3x -benchmem .
bench-gateway:
	cd services/gateway && go test -run '^$$' -bench . ./internal/fanout/
## bench-loop: time-to-green on real bug fixes: SWE_SUITE=DIR, else a small suite built offline from SWE_CORPUS
SWE_CORPUS ?= /work/corpus
bench-loop: engine images
	cd services/loop && go test -run '^$$' -bench WatchRunDelivery ./loopsvc/
	cd services/loop && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench VerifyLoopOverhead -benchtime 10x ./e2e/
	@if [ -n "$(SWE_SUITE)" ]; then $(MAKE) build && bash scripts/swe-bench-loop.sh "$(SWE_SUITE)"; \
	elif [ -d "$(SWE_CORPUS)" ]; then $(MAKE) build && bash scripts/bench-swe-small.sh "$(SWE_CORPUS)"; \
	else echo "bench-loop: no SWE_SUITE=DIR (OUT/gold of scripts/swe-tasks.sh) nor SWE_CORPUS=$(SWE_CORPUS) (the corpus's checkouts, docs/realworld.md): no time-to-green on real bug fixes"; fi
## bench-fleet: 50 parallel verifies through 2 executors (2 engines) vs 1, a warm-pool verify vs bare docker run,
## fix rounds (rolled back by fail-fast, accepted) vs a cold verify, events persisted and delivered to 100 watchers
bench-fleet: engine images
	cd services/loop && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench 'FleetThroughput' -benchtime 1x -timeout 30m ./e2e/
	cd services/loop && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench 'WarmVerifyVsDockerRun' -benchtime 10x ./e2e/
	cd services/loop && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench 'FixRoundVsColdVerify' -benchtime 3x ./e2e/
	cd services/loop && go test -run '^$$' -bench 'WatchRunDelivery' ./loopsvc/

## bench-oneshot: an embedded one-shot `greenlight verify` of a one-step project vs `docker run --rm --network none IMAGE true`,
## alternating, with the verify's phases as the Engine API saw them (before-create, create, start, in-sandbox, remove, exit)
bench-oneshot: engine images
	cd cmd/greenlight && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench 'OneShotVerifyVsDockerRun' -benchtime 5x .

bench-executor: engine images
	cd services/executor && GREENLIGHT_INTEGRATION=1 go test -run '^$$' -bench . -benchtime 5x ./...

## test-executor-exec: the executor suite with one docker exec per step (the fallback for images without the step runner)
test-executor-exec: engine images
	cd services/executor && GREENLIGHT_TEST_STEP_RUNNER=exec GREENLIGHT_INTEGRATION=1 go test -count=1 ./...

## fuzz: run every fuzzer for a short while (corpora are kept under testdata/fuzz)
fuzz:
	cd pkg && go test -run '^$$' -fuzz FuzzValidate -fuzztime 60s ./workspace/
	cd services/loop && go test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./internal/patch
	cd services/loop/internal/parse && for f in FuzzParseLog FuzzFlatJSON FuzzArtifacts FuzzPyMatchers; do \
	  go test -run '^$$' -fuzz "^$$f$$" -fuzztime 30s -fuzzminimizetime 3s . || exit 1; done

clean:
	rm -rf $(BIN) artifacts dist
