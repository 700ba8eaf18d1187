# A thin front to the go tool: every target is one or two go commands.
# GOFLAGS=-buildvcs=false may be set in the environment, so targets that
# make a binary ask for VCS stamping explicitly (the build's revision is part
# of every result record).

GO ?= go

# The packages that share memory between goroutines, those that exist.
RACE_PKGS := $(foreach d,tt solver egdb,$(if $(wildcard $(d)/),./$(d)/...))

.PHONY: build test slow race bench fuzz lint install

build:
	$(GO) build -buildvcs=true -o kalah ./cmd/kalah

test:
	$(GO) test -short ./...

slow:
	$(GO) test -tags slow -timeout 60m ./...

race:
ifeq ($(strip $(RACE_PKGS)),)
	@echo "race: none of tt, solver, egdb exists yet"
else
	$(GO) test -race -short $(RACE_PKGS)
endif

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -fuzz FuzzSow -fuzztime 30s ./engine

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt -l lists unformatted files:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

install:
	$(GO) install -buildvcs=true ./cmd/kalah
