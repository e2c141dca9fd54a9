#!/usr/bin/env bash
# README's main command. Until the extension lands, the main job is the command-line tool over the example
# workspace: every Fleet, KubeStellar, Harbor, Flux and ASO object there, with the state each system would report.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
node_dir=$(scripts/toolchain.sh)
"$node_dir/bin/node" esbuild.mjs >/dev/null
"$node_dir/bin/node" dist/cli.cjs status examples/workspace "$@"
