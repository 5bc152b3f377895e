# shopsh: two commands on a fresh machine: `make run` and `make test`.

SWIFT ?= swift
APT_PACKAGES := libreadline-dev libncurses-dev libsqlite3-dev libc6-dev sqlite3 jq tmux less python3 man-db groff-base
BIN_RELEASE := .build/release/shopsh
# Release builds are one static executable: the Swift runtime, Foundation, glibc and the system's
# readline, terminfo and SQLite archives linked in, so start-up has no dynamic loader and no
# relocations to apply (start-up 13.6 → 9.5 ms, `shopsh __complete` 6.0 → 1.9 ms: bench/README.md).
# Without those archives (libreadline-dev, libncurses-dev, libsqlite3-dev and libc6-dev ship them),
# or if the static link fails, the system libraries are linked dynamically instead. `=`, not `:=`:
# the archives are looked for after `deps` has installed them.
LLD := $(wildcard $(dir $(realpath $(shell command -v $(SWIFT))))ld.lld)
STATIC_ARCHIVES = $(foreach lib,readline tinfo sqlite3 c,$(firstword $(wildcard /usr/lib/*/lib$(lib).a /usr/lib/lib$(lib).a)))
RELEASE_BASE := -c release --product shopsh --static-swift-stdlib $(if $(LLD),-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
RELEASE_STATIC := $(RELEASE_BASE) -Xswiftc -static-executable -Xlinker -ltinfo
RELEASE_DYNAMIC := $(RELEASE_BASE) $(if $(LLD),-Xlinker -z -Xlinker pack-relative-relocs)

.PHONY: run build release test deps clean bench bench-postgres docs fuzz crash-safety

## Install missing system packages (Debian/Ubuntu), build a release binary, open the shell.
run: deps release
	$(BIN_RELEASE)

## Build the release binary: static when it can be (see RELEASE_STATIC), else dynamic.
release: deps
	$(if $(word 4,$(STATIC_ARCHIVES)),$(SWIFT) build $(RELEASE_STATIC) || \
	  { echo "shopsh: the static link failed; linking the system libraries dynamically" >&2; \
	    $(SWIFT) build $(RELEASE_DYNAMIC); },$(SWIFT) build $(RELEASE_DYNAMIC))

build: deps
	$(SWIFT) build

## Unit, store, plugin and end-to-end tests (the e2e tests run the built binary), then the plugin
## and end-to-end tests again on PostgreSQL (scripts/test-stores). The PostgreSQL
## tests get a throwaway cluster (scripts/postgres-cluster: installs postgresql when missing, hands
## its URL over in SHOPSH_TEST_POSTGRES, stops and removes it on every exit path, Ctrl-C included).
## A pg_auto_failover formation (scripts/postgres-formation: a monitor, a primary and a secondary,
## installed from Debian's packages when missing) runs beside it for the failover tests
## (SHOPSH_TEST_FORMATION_URI), stopped and removed on every exit path too.
## Under CI=true a cluster or formation that cannot start fails the run; elsewhere those tests skip and say why.
test: deps
	$(SWIFT) build
	scripts/postgres-cluster run scripts/postgres-formation run scripts/test-stores $(SWIFT)

## The man page, generated from the command tree (commit man/shopsh.1 after running it).
docs: deps
	$(SWIFT) build
	.build/debug/shopsh __manual > man/shopsh.1.tmp || { rm -f man/shopsh.1.tmp; exit 1; }
	mv man/shopsh.1.tmp man/shopsh.1

## Installs what the build and tests use when it is missing (needs root or sudo).
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

## libFuzzer targets (tokenizer, money, every importer), each for FUZZ_SECONDS (default 60): fuzz/run.
FUZZ_SECONDS ?= 60
fuzz: deps
	fuzz/run $(FUZZ_SECONDS)

## kill -9 at random points of 10,000-command batches: integrity and exactly a prefix applied (not in `make test`).
crash-safety: release
	bench/crash-safety

## Benchmarks against the sqlite3 CLI, then against psql on a throwaway PostgreSQL cluster
## (prints figures; never part of `make test`).
bench: deps
	bench/run
	bench/postgres

## Only the PostgreSQL section of `make bench` (bench/postgres: shopsh against psql).
bench-postgres: deps
	bench/postgres

clean:
	rm -rf .build
