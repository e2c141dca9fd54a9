#!/usr/bin/env bash
# The hostile-input suite at full size (issue 13): every test whose name contains "hostile" (files, decoding, output
# bounds, exact integers, the CLI on 1e6 objects, servers that trickle, flood or break the watch, the demo API server
# under fuzzed patches) with KSL_HOSTILE_LONG=1, which makes the inputs as large as the attacks that found them and
# the fuzzing longer. CI runs the same tests bounded in size and count. Builds the bundles first (the CLI tests run
# dist/cli.cjs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node24=$(scripts/toolchain.sh)/bin/node
"$node24" esbuild.mjs
export KSL_HOSTILE_LONG=1
echo "hostile soak ($(date +%T))"
status=0
"$node24" --test --test-reporter=spec $(find test -name '*hostile*.test.ts' -o -name '*hostile*.test.mjs' | sort) ||
	status=$?
echo "hostile soak done ($(date +%T)); exit ${status}"
exit "$status"
