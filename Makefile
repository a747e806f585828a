# The two commands: `make run` and `make test`. Each installs what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := run

BUILD_PACKAGES := libargon2-dev libcurl4-openssl-dev libsqlite3-dev pkg-config
TEST_PACKAGES  := chromium chromium-driver python3 python3-venv
CONFIGURATION  ?= debug
BIN            := .build/$(CONFIGURATION)/wishlist
VENV           := .venv

.PHONY: run test build deps test-deps unit e2e clean

## run: build and serve on http://localhost:8080 (set CONFIGURATION=release for a faster server)
run: deps
	swift build -c $(CONFIGURATION) --product wishlist
	$(BIN) serve

## test: unit and HTTP-level tests, then the browser tests
test: test-deps unit e2e

deps:
	@scripts/ensure-packages.sh $(BUILD_PACKAGES)

test-deps: deps
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
	@scripts/ensure-venv.sh $(VENV) Tests/e2e/requirements.txt

build: deps
	swift build --product wishlist

unit: deps
	swift test

e2e: build test-deps
	WISHLIST_BIN=$(CURDIR)/.build/debug/wishlist $(VENV)/bin/python -m pytest Tests/e2e -q

clean:
	rm -rf .build $(VENV)
