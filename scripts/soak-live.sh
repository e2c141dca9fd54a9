#!/usr/bin/env bash
# The live differential test (test/live/liveDifferential.test.ts) over many seeds: `scripts/soak-live.sh [seeds]
# [steps] [first seed]` (default 200 seeds of 40 steps from seed 1). Each seed starts the demo clusters afresh and
# runs its steps through client-node, the sessions, the feed and the graph; a failing seed prints its shrunk steps
# and how to replay it (KSL_SEED=n). Stops by itself: every settle, shrink and seed is bounded.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seeds=${1:-200}
steps=${2:-40}
first=${3:-1}
node24=$(scripts/toolchain.sh)/bin/node
last=$((first + seeds - 1))
echo "live differential soak: seeds ${first}..${last}, ${steps} steps each ($(date +%T))"
# One seed per test; the whole run is bounded by node:test's per-test timeouts.
status=0
KSL_FIRST_SEED="$first" KSL_SEEDS="$seeds" KSL_STEPS="$steps" \
	"$node24" --test --test-reporter=spec test/live/liveDifferential.test.ts || status=$?
echo "live differential soak: seeds ${first}..${last} ran ($(date +%T)); exit ${status}"
exit "$status"
