# The two commands: `make run` and `make test`. Each installs what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := run

BUILD_PACKAGES := libargon2-dev libcurl4-openssl-dev libdeflate-dev libjpeg62-turbo-dev libpng-dev libsqlite3-dev libwebp-dev libzbar-dev pkg-config tzdata zlib1g-dev
# wapiti: test_scanners.py runs run_wapiti.py in Debian's wapiti, as make scan does (which comes later in CI).
TEST_PACKAGES  := caddy chromium chromium-driver nginx openssl python3 python3-venv systemd wapiti
CONFIGURATION  ?= debug
BIN            := .build/$(CONFIGURATION)/wishlist
VENV           := .venv
# The household mix's generator (uvloop), apart from the browser tests' packages.
BENCH_VENV     := .venv-bench

.PHONY: run test build deps test-deps unit e2e clean install

## run: build and serve on http://localhost:8080 (set CONFIGURATION=release for a faster server)
run: deps
	swift build -c $(CONFIGURATION) --product wishlist
	$(BIN) serve

## test: the fuzz smoke, unit and HTTP-level tests, then the browser tests
test: test-deps mutants-check fuzz-smoke unit e2e

deps:
	@scripts/ensure-packages.sh $(BUILD_PACKAGES)

test-deps: deps
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
	@scripts/ensure-venv.sh $(VENV) Tests/e2e/requirements.txt

build: deps
	swift build --product wishlist

# Swift Testing starts every test at once unless told otherwise: on two cores that put 840 tests
# on the cooperative pool's two threads together, so each waited minutes for its turn and the one
# with a client timeout (20 s, HummingbirdTesting's live client) tripped. At most UNIT_WIDTH test
# cases run at once: each one's time is its own, and the tests over libcurl (real 30 s transfer
# limits) run in the same pass. The event stream gives the run's slowest tests (scripts/slowest-tests.py).
UNIT_WIDTH  ?= 4
UNIT_EVENTS := .build/unit-events.jsonl
unit: deps
	@scripts/ensure-packages.sh python3
	@rm -f $(UNIT_EVENTS)
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(UNIT_WIDTH) swift test --event-stream-output-path $(UNIT_EVENTS) --event-stream-version 0; \
		status=$$?; python3 scripts/slowest-tests.py $(UNIT_EVENTS) 12; exit $$status

# One pytest process keeps the two cores about 60% busy (Chromium, mostly); two pytest-xdist workers,
# each with its own server, database and browsers, keep them busy and take about a quarter off the
# wall time. test_accessibility.py stays on one worker (Tests/e2e/conftest.py, ONE_WORKER_FILES).
# E2E_WORKERS=0 runs everything in one process, in file order. --durations=15: the log names the slowest tests.
E2E_WORKERS ?= 2
e2e: build test-deps
	WISHLIST_BIN=$(CURDIR)/.build/debug/wishlist $(VENV)/bin/python -m pytest Tests/e2e -q -n $(E2E_WORKERS) --durations=15

clean:
	rm -rf .build $(VENV)

## install: an optimised build into $(PREFIX)/lib/bestseller-wishlist, with `wishlist` in $(PREFIX)/bin
## (README: "Install on a server"). DESTDIR stages it elsewhere; INSTALL_CONFIGURATION=debug skips the release build.
## It also makes $(SYSCONFDIR)/bestseller-wishlist/env, the unit's EnvironmentFile for the NYT key, empty and mode
## 0600 when missing, so the key is never in a file others can read; a file already there keeps its contents and
## loses any access for group and others.
PREFIX                ?= /usr/local
SYSCONFDIR            ?= /etc
INSTALL_CONFIGURATION ?= release
APP_DIR               := $(DESTDIR)$(PREFIX)/lib/bestseller-wishlist
ENV_DIR               := $(DESTDIR)$(SYSCONFDIR)/bestseller-wishlist
RESOURCES             := bestseller-wishlist_WishlistCore.resources
install: deps
	swift build -c $(INSTALL_CONFIGURATION) --product wishlist
	install -d $(APP_DIR) $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/$(INSTALL_CONFIGURATION)/wishlist $(APP_DIR)/wishlist
	rm -rf $(APP_DIR)/Views $(APP_DIR)/Languages $(APP_DIR)/Public $(APP_DIR)/$(RESOURCES) $(APP_DIR)/deploy
	cp -R Views Languages Public deploy README.md $(APP_DIR)/
	cp -R .build/$(INSTALL_CONFIGURATION)/$(RESOURCES) $(APP_DIR)/
	ln -sfn ../lib/bestseller-wishlist/wishlist $(DESTDIR)$(PREFIX)/bin/wishlist
	install -d -m 0755 $(ENV_DIR)
	[ -e $(ENV_DIR)/env ] || install -m 0600 /dev/null $(ENV_DIR)/env
	chmod go= $(ENV_DIR)/env

# Benchmarks (Benchmarks/README.md). Each writes its table to .build/bench/ and into Benchmarks/README.md
# (BENCH_UPDATE_README=0 leaves the README alone).
BENCH_PACKAGES := wrk python3
.PHONY: bench bench-templates bench-import bench-scale bench-peers bench-browser bench-session bench-mix bench-pictures

## bench: release build of the app and of a minimal Hummingbird server, then wrk on 127.0.0.1 (about 8 minutes of load)
bench: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	swift build -c release --scratch-path .build-bench --product wishlist
	swift build -c release --package-path Benchmarks --product ceiling-server
	BENCH_COMMAND="make bench" python3 Benchmarks/server/bench.py

## bench-import: release build of the app, then 5,000-row Goodreads imports while wrk loads the list page, and one import of 5,000
## and one of 50,000 rows while other members sign in and add books, timed (about 2 minutes)
bench-import: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	swift build -c release --scratch-path .build-bench --product wishlist
	BENCH_COMMAND="make bench-import" python3 Benchmarks/server/import_bench.py

## bench-scale: release build of the app, then the same pages on a near-empty database and on one with 10,000 users and 500,000 wishlist items (about 4 minutes)
bench-scale: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	swift build -c release --scratch-path .build-bench --product wishlist
	BENCH_COMMAND="make bench-scale" python3 Benchmarks/server/scale.py

## bench-mix: release build of the app, then a household's mix (200 members, 90% page views, 10% writes) at a fixed 1,000 req/s on the scale database
## (about 2 minutes, after building the database once: about a minute). BENCH_APP=path measures that build instead of building one.
bench-mix: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES) python3-venv
	@scripts/ensure-venv.sh $(BENCH_VENV) Benchmarks/server/requirements.txt
	[ -n "$(BENCH_APP)" ] || swift build -c release --scratch-path .build-bench --product wishlist
	BENCH_COMMAND="make bench-mix" $(BENCH_VENV)/bin/python Benchmarks/server/mix.py

## bench-pictures: release build of the app, then 8 MB JPEGs (24 and 40 megapixels) uploaded as profile pictures, alone and four at once, with the server's peak memory
## (about a minute). BENCH_APP=path measures that build instead of building one.
bench-pictures: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES) libjpeg-turbo-progs
	[ -n "$(BENCH_APP)" ] || swift build -c release --scratch-path .build-bench --product wishlist
	BENCH_COMMAND="make bench-pictures" python3 Benchmarks/server/pictures.py

## bench-peers: the list page in our app (memo-served repeat, and every request reading the database), in Django (PyPI, a venv in Benchmarks/peers/django) and in Vapor 4 + Leaf, side by side
## (the first run builds Vapor in release: about 20 minutes on 2 cores)
bench-peers: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES) python3-venv
	swift build -c release --scratch-path .build-bench --product wishlist
	swift build -c release --package-path Benchmarks/peers/vapor/VaporPeer
	BENCH_COMMAND="make bench-peers" python3 Benchmarks/server/peers.py

## bench-browser: Largest Contentful Paint, requests and bytes of the list, book and wishlist pages in headless Chromium
## on DevTools' "Slow 4G" with the CPU slowed 4x, first and repeat visits, against the release build (about 6 minutes)
## Chromium, chromedriver and the server run at nice BENCH_NICE (root only), ahead of whatever else the machine runs.
BENCH_NICE ?= -10
bench-browser: test-deps
	swift build -c release --scratch-path .build-bench --product wishlist
	BENCH_COMMAND="make bench-browser" nice -n $(BENCH_NICE) $(VENV)/bin/python Benchmarks/browser/lcp.py

## bench-session: a browsing session's bytes and LCP in the same Chromium: a first visit, then 9 more pages clicked through
## (issue 58; about 4 minutes). BENCH_BEFORE_APP=path BENCH_BEFORE_TREE=dir runs another build's sessions in turns with this one's.
bench-session: test-deps
	swift build -c release --scratch-path .build-bench --product wishlist
	BENCH_COMMAND="make bench-session" nice -n $(BENCH_NICE) $(VENV)/bin/python Benchmarks/browser/session.py

## bench-templates: the list page rendered by our engine, swift-mustache and Stencil (release build)
## (it links the app's WishlistCore product, which needs the app's system libraries: deps)
bench-templates: deps
	swift build -c release --package-path Benchmarks --product template-bench
	BENCH_COMMAND="make bench-templates" Benchmarks/.build/release/template-bench --views Views --templates Benchmarks/Templates \
		--catalog Sources/WishlistCore/Catalog/SampleCatalog --public Public \
		--out .build/bench/templates.md --readme Benchmarks/README.md

## mutants: flip each guard the promises table names, run its tests, report survivors (outside CI: about 45 minutes; MUTANTS=fast is the subset .ci/run runs, MUTANTS=a,b the named flips)
.PHONY: mutants mutants-check
mutants: deps
	MUTANTS=$(MUTANTS) python3 scripts/mutants.py

## mutants-check: part of make test: every flip still applies and every section of docs/promises.md has one (no build)
mutants-check:
	@scripts/ensure-packages.sh python3
	python3 scripts/mutants.py --check

# Attack and crash tests (README "Attack and crash tests"). Their scripts use only Python's standard
# library and run on Debian's python3, where Debian's wapiti lives too: no virtual environment.
ATTACK_PACKAGES := wapiti sqlmap python3
CRASH_ROUNDS    ?= 20
CRASH_SEED      ?=
.PHONY: scan crash

## scan: wapiti and sqlmap against a signed-in session on 127.0.0.1; fails on any finding but the loopback ones (about 7 minutes)
scan: build
	@scripts/ensure-packages.sh $(ATTACK_PACKAGES)
	WISHLIST_BIN=$(CURDIR)/.build/debug/wishlist /usr/bin/python3 Tests/attack/scan.py

## crash: concurrent adds and removals while the server is killed with kill -9, CRASH_ROUNDS times (CRASH_SEED=N repeats a run)
crash: build
	@scripts/ensure-packages.sh python3
	WISHLIST_BIN=$(CURDIR)/.build/debug/wishlist /usr/bin/python3 Tests/attack/crash.py --rounds $(CRASH_ROUNDS) $(if $(CRASH_SEED),--seed $(CRASH_SEED))

# Fuzzing and the soak (docs/fuzzing.md, docs/soak.md): make fuzz and make soak are outside CI like the
# benchmarks; the fuzz smoke (a few seconds a target) is part of make test.
FUZZ_TARGETS ?= form-body multipart goodreads-csv picture cover webauthn nyt-json openlibrary-json isbn forwarded \
	template config smtp-reply jws
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 3
SOAK_MINUTES ?= 10
.PHONY: fuzz fuzz-build fuzz-build-optimised fuzz-long fuzz-smoke soak

## fuzz-build: the libFuzzer targets (Fuzz/) in .build beside the debug build: our code instrumented, the dependencies plain and shared with it (docs/decisions/fuzz-build-shares-the-debug-build.md)
fuzz-build: deps
	WISHLIST_FUZZ=1 swift build --product wishlist-fuzz

## fuzz: each of FUZZ_TARGETS for FUZZ_SECONDS on its seeds (Fuzz/corpus); fails on a crash and keeps the input
fuzz: fuzz-build
	scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## fuzz-build-optimised: the same targets built with -O in .build-fuzz-release, for the long runs
fuzz-build-optimised: deps
	WISHLIST_FUZZ=1 swift build -c release --product wishlist-fuzz --scratch-path .build-fuzz-release

## fuzz-long: docs/fuzzing.md's long runs, on the optimised build: each of FUZZ_TARGETS to 10 M executions or an hour of its own CPU, at the lowest priority
fuzz-long: fuzz-build-optimised
	FUZZ_BINARY=.build-fuzz-release/release/wishlist-fuzz scripts/fuzz-long.sh $(FUZZ_TARGETS)

## fuzz-smoke: part of make test: every seed of every target, then FUZZ_SMOKE_SECONDS of mutations each
fuzz-smoke: fuzz-build
	scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

## soak: the server (CONFIGURATION, debug by default) under a steady household load for SOAK_MINUTES; fails on an error, growing RSS or fds, or an unbounded WAL
soak: deps
	swift build -c $(CONFIGURATION) --product wishlist
	SOAK_MINUTES=$(SOAK_MINUTES) SOAK_APP=$(CURDIR)/$(BIN) /usr/bin/python3 Tests/soak/soak.py

## confusables: writes Sources/WishlistCore/Profiles/confusables.txt (display names' look-alikes) from Debian's ICU; commit it
.PHONY: confusables
confusables:
	@scripts/ensure-packages.sh libicu-dev python3
	/usr/bin/python3 scripts/make-confusables.py
