SHELL := /bin/bash
.PHONY: deps compile build guard-eval redis run test lint typecheck bench sim guard-model clean

deps: node_modules/.installed
# The lock records every platform's optional package (msgpackr-extract is pinned by an override to 3.0.4, the
# last release whose platform packages are all published), so `npm ci` installs exactly the lock.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

redis:
	@command -v redis-server >/dev/null || { (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; }

# The guardrail scorer is trained at build time from ../shared/data/guardrails-train (skipped when current).
guard-model: compile
	node dist/scripts/guard/train.js --if-missing

# make skips tsc when no source is newer than the last build; tsc --incremental re-checks only what changed.
TS_SOURCES := $(shell find src workers test bench scripts -name '*.ts' 2>/dev/null)
compile: dist/.tsbuildinfo
dist/.tsbuildinfo: $(TS_SOURCES) tsconfig.json node_modules/.installed
	node_modules/.bin/tsc -p tsconfig.json --incremental --tsBuildInfoFile $@
	@touch $@

build: compile guard-model

# Held-out evaluation of the guardrail scorer (writes docs/guardrails-eval.md; never trains on the eval set).
guard-eval: build
	node --expose-gc dist/scripts/guard/eval.js

# Dev bootstrap (simulator for missing credentials, seeded org, printed key) is on for `make run` only.
# The node flags are src/memory-flags.ts GATEWAY_NODE_FLAGS (resident memory: docs/memory.md).
run: build
	SVC_DEV_BOOTSTRAP=$${SVC_DEV_BOOTSTRAP:-true} node --max-semi-space-size=8 --v8-pool-size=1 dist/src/main.js

sim: build
	node dist/src/cli.js sim --port $${SIM_PORT:-9000}

lint: deps
	npx eslint --no-warn-ignored .

typecheck: deps
	npx tsc -p tsconfig.json --noEmit

test: redis build lint
	rm -f .vitest-flaky-*.json; \
	VITEST_RETRY=1 VITEST_SERIAL=0 npx vitest run --reporter=default --reporter=json --reporter=./test/flaky-reporter.ts --outputFile=.vitest-results.json; a=$$?; \
	VITEST_RETRY=1 VITEST_SERIAL=1 npx vitest run --reporter=default --reporter=json --reporter=./test/flaky-reporter.ts --outputFile=.vitest-serial.json; b=$$?; \
	node scripts/test-summary.mjs .vitest-results.json .vitest-serial.json; exit $$(( a || b ))

bench: build
	node dist/bench/micro/transcode.js | tee bench/results/micro.md
	node dist/bench/micro/metric-updates.js | tee -a bench/results/micro.md
	node dist/bench/micro/round-trip.js | tee -a bench/results/micro.md
	node dist/bench/micro/token-count.js | tee -a bench/results/micro.md
	node dist/bench/load/run.js
	node dist/bench/load/sustained.js

clean:
	rm -rf dist
