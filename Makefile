# A thin front to the go tool: every target is one or two go commands.
# GOFLAGS=-buildvcs=false may be set in the environment, so targets that
# make a binary ask for VCS stamping explicitly (the build's revision is part
# of every result record).

GO ?= go

# staticcheck for `make lint`, at the release .ci/run installs (2026.2.2 is
# module version v0.8.2); run with go run, not a dependency in go.mod.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# The packages whose tests run goroutines that share memory.
RACE_PKGS := . ./tt/... ./solver/... ./egdb/... ./persist/... ./results/... ./bench/... ./play/... ./serve/... ./campaign/... ./cmd/...

.PHONY: build test slow race bench fuzz lint install pgo

build:
	$(GO) build -buildvcs=true -o kalah ./cmd/kalah

test:
	$(GO) test -short ./...

# The whole suite, deep cases included (the ones testing.Short() skips).
slow:
	$(GO) test -timeout 60m ./...

race:
	$(GO) test -race -short $(RACE_PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -fuzz FuzzSow -fuzztime 30s ./engine

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt -l lists unformatted files:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

install:
	$(GO) install -buildvcs=true ./cmd/kalah

# The profile the go tool builds cmd/kalah with (cmd/kalah/default.pgo, used
# by go build, go run and go install alike): the 20-seed six-pit database's
# build and every move's value of Kalah(6,4) under both rules. Remake it when
# the build or the search changes much.
pgo: build
	rm -rf pgo.tmp && mkdir pgo.tmp
	./kalah egdb build --pits 6 --max-seeds 20 --egdb pgo.tmp/egdb -q --cpuprofile pgo.tmp/build.prof
	./kalah egdb build --pits 6 --max-seeds 20 --rule empty-capture --egdb pgo.tmp/egdb -q
	./kalah solve --force --no-cache -q --egdb pgo.tmp/egdb --cpuprofile pgo.tmp/nec.prof
	./kalah solve --force --no-cache -q --rule empty-capture --egdb pgo.tmp/egdb --cpuprofile pgo.tmp/ec.prof
	$(GO) tool pprof -proto pgo.tmp/build.prof pgo.tmp/nec.prof pgo.tmp/ec.prof > cmd/kalah/default.pgo
	rm -rf pgo.tmp

# Campaigns on a three-node NATS JetStream cluster whose nodes, coordinator
# and workers are network namespaces on one bridge, with injected faults
# (campaign/clustertest; needs root and iproute2, skips elsewhere).
# KALAH_CLUSTER_GAME is the position (pits,seeds), KALAH_CLUSTER_EGDB the
# seeds of the workers' endgame database (0: none); KALAH_CLUSTER_RULE and
# KALAH_CLUSTER_EGDB_DIR, when set, pass through (docs/distributed.md);
# KALAH_CLUSTER_LOAD says in scale-test's records what else ran.
KALAH_CLUSTER_GAME ?= 6,4
KALAH_CLUSTER_EGDB ?= 20

.PHONY: cluster-test
cluster-test:
	KALAH_CLUSTER_GAME=$(KALAH_CLUSTER_GAME) KALAH_CLUSTER_EGDB=$(KALAH_CLUSTER_EGDB) \
		$(GO) test -v -count=1 -timeout 180m ./campaign/clustertest

# The same campaign with 1, 2 and 4 workers on fresh clusters, each run's
# wall time against kalah campaign simulate of the one-worker run (a
# measurement of a few minutes; its records go to bench/data/campaign.jsonl
# from a clean tree, then go test ./bench -run TestBenchmarksPage -update).
KALAH_CLUSTER_RULE ?= empty-capture
KALAH_CLUSTER_SCALE ?= 1,2,4
KALAH_CLUSTER_SPLIT ?= 1

.PHONY: scale-test
scale-test:
	KALAH_CLUSTER_GAME=$(KALAH_CLUSTER_GAME) KALAH_CLUSTER_EGDB=$(KALAH_CLUSTER_EGDB) \
	KALAH_CLUSTER_RULE=$(KALAH_CLUSTER_RULE) KALAH_CLUSTER_SCALE=$(KALAH_CLUSTER_SCALE) KALAH_CLUSTER_SPLIT=$(KALAH_CLUSTER_SPLIT) KALAH_CLUSTER_SCALE_RECORD=1 \
		$(GO) test -v -count=1 -timeout 60m -run '^TestScaling$$' ./campaign/clustertest
