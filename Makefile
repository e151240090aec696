SHELL := /bin/bash
.PHONY: deps compile build guard-eval redis run test lint typecheck bench sim guard-model clean

deps: node_modules/.installed
node_modules/.installed: package.json package-lock.json
	# npm ci rejects this lock (npm 11 drops other platforms' optional msgpackr-extract entries when
	# omit-lockfile-registry-resolved is set); npm install honours the same lock.
	npm ci --no-audit --no-fund || npm install --no-audit --no-fund
	touch $@

redis:
	@command -v redis-server >/dev/null || { (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; }

# The guardrail scorer is trained at build time from ../shared/data/guardrails-train (skipped when current).
guard-model: compile
	node dist/scripts/guard/train.js --if-missing

compile: deps
	npx tsc -p tsconfig.json

build: compile guard-model

# Held-out evaluation of the guardrail scorer (writes docs/guardrails-eval.md; never trains on the eval set).
guard-eval: build
	node --expose-gc dist/scripts/guard/eval.js

# Dev bootstrap (simulator for missing credentials, seeded org, printed key) is on for `make run` only.
run: build
	SVC_DEV_BOOTSTRAP=$${SVC_DEV_BOOTSTRAP:-true} node dist/src/main.js

sim: build
	node dist/src/cli.js sim --port $${SIM_PORT:-9000}

lint: deps
	npx eslint --no-warn-ignored .

typecheck: deps
	npx tsc -p tsconfig.json --noEmit

test: redis build lint
	npx vitest run --reporter=default --reporter=json --outputFile=.vitest-results.json; code=$$?; node scripts/test-summary.mjs .vitest-results.json; exit $$code

bench: build
	node dist/bench/micro/transcode.js | tee bench/results/micro.md
	node dist/bench/load/run.js

clean:
	rm -rf dist
