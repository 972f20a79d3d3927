# llmops: build, run and test. See README.md.
SHELL := /bin/bash
CARGO ?= cargo
DATA_DIR ?= storage
LISTEN ?= 127.0.0.1:9999

.PHONY: run setup build release test cycles fixtures e2e bench eval lint fmt fuzz-build fuzz clean chaos quic-bench deb deb-test

## run: build release binaries, set up, start the server on storage/ and open the client
run: release setup
	@scripts/run.sh "$(DATA_DIR)" "$(LISTEN)"

## setup: idempotent: data dir layout and the embedding model (multilingual e5), skipped
## when present
setup:
	@scripts/setup.sh "$(DATA_DIR)"

build:
	$(CARGO) build --workspace --bins

release:
	$(CARGO) build --release --bins

## deb: the Debian package target/debian/llmops_<version>_amd64.deb (release build, the
## pinned cargo-deb; see docs/install.md)
deb:
	@scripts/deb.sh build

## deb-test: as root: lintian, install with no network, the server started as its unit
## starts it, a TUI, an upgrade over the previous package (LLMOPS_DEB_PREVIOUS=FILE or
## LLMOPS_DEB_PREVIOUS_REF=main), remove and purge. Two release builds: not part of `test`.
deb-test:
	@scripts/deb-test.sh

## chaos: fault injection against the release binaries (kill -9 during uploads and chats,
## hostile peers, full disk); prints a table. KILLS=10 kill -9 trials by default.
KILLS ?= 10
chaos:
	@scripts/chaos.sh "$(KILLS)"

## test: the full suite: unit, property and end-to-end tests of the real binaries
## (setup first: the dense index tests need the embedding model)
test: setup build quic-bench cycles fixtures
	$(CARGO) test --workspace

## quic-bench: the QUIC comparison program (bench/quic, its own workspace) into the shared
## target dir: the RDT + QUIC bottleneck test in tests/tests/netns.rs runs it
quic-bench:
	$(CARGO) build --manifest-path bench/quic/Cargo.toml --target-dir "$${CARGO_TARGET_DIR:-target}"

## cycles: no import cycles among the modules of the server-side, protocol and client crates
cycles:
	@python3 scripts/modcycles.py server/src tools/src planner/src tooldata/src policy/src protocol/src rdt-io/src client/src common/src index/src loganalysis/src tui/src

## fixtures: the ops search fixtures the index bench reads are whole (every question names
## a file of its set, no duplicates, the tuning and held-out sets share no documents)
fixtures:
	@python3 tests/fixtures/ops/validate.py

## e2e: the real server and the real TUI in a pseudo-terminal, scenario by scenario
e2e: build
	$(CARGO) test -p llmops-tests --test e2e

## eval: the agent evaluation sets through the real server (with the slow query sets,
## which `make test` leaves out)
eval: build
	$(CARGO) test -p llmops-tests --test eval -- --nocapture --include-ignored

## bench: benchmarks; results go to docs/benchmarks.md
bench:
	@scripts/bench.sh

## lint: formatting and clippy, warnings are errors
lint: cycles
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

## fuzz-build / fuzz: the fuzz targets (cargo-fuzz on the nightly toolchain, installed on
## first use; not part of CI): `decode` (the NPLT decoder) and `tokenize` (the chunker and
## e5's tokenizer on any bytes; reads the model `make setup` installs). Each runs for
## FUZZ_SECS seconds: `make fuzz FUZZ_SECS=60`.
FUZZ_SECS ?= 30
FUZZ_TARGETS ?= decode tokenize
fuzz-build:
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked
	cd fuzz && for t in $(FUZZ_TARGETS); do $(CARGO) +nightly fuzz build $$t || exit 1; done

fuzz: setup fuzz-build
	cd fuzz && for t in $(FUZZ_TARGETS); do \
		$(CARGO) +nightly fuzz run $$t -- -max_total_time=$(FUZZ_SECS) || exit 1; done

clean:
	$(CARGO) clean
