# shopsh: two commands on a fresh machine: `make run` and `make test`.

SWIFT ?= swift
APT_PACKAGES := libreadline-dev libsqlite3-dev sqlite3 jq tmux less python3
BIN_RELEASE := .build/release/shopsh

.PHONY: run build release test deps clean bench

## Install missing system packages (Debian/Ubuntu), build a release binary, open the shell.
run: deps release
	$(BIN_RELEASE)

## Build a release binary.
release: deps
	$(SWIFT) build -c release

build: deps
	$(SWIFT) build

## Unit, store, plugin and end-to-end tests (the e2e tests run the built binary).
test: deps
	$(SWIFT) build
	$(SWIFT) test --disable-xctest

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

clean:
	rm -rf .build
