# shopsh: two commands on a fresh machine: `make run` and `make test`.

SWIFT ?= swift
APT_PACKAGES := libreadline-dev libsqlite3-dev sqlite3 jq tmux less python3 man-db groff-base
BIN_RELEASE := .build/release/shopsh
# Release builds link the Swift runtime statically and, with the toolchain's lld, pack the
# binary's ~94,000 relative relocations (DT_RELR): start-up 17 → 13 ms (bench/RESULTS.md).
LLD := $(wildcard $(dir $(realpath $(shell command -v $(SWIFT))))ld.lld)
RELEASE_FLAGS := -c release --static-swift-stdlib \
  $(if $(LLD),-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)

.PHONY: run build release test deps clean bench docs

## Install missing system packages (Debian/Ubuntu), build a release binary, open the shell.
run: deps release
	$(BIN_RELEASE)

## Build the release binary (see RELEASE_FLAGS).
release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

build: deps
	$(SWIFT) build

## Unit, store, plugin and end-to-end tests (the e2e tests run the built binary).
test: deps
	$(SWIFT) build
	$(SWIFT) test --disable-xctest

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

## Benchmarks against the sqlite3 CLI (prints figures; never part of `make test`).
bench: deps
	bench/run

clean:
	rm -rf .build
