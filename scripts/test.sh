#!/usr/bin/env bash
# README's test command: unit and conformance tests on the pinned Node 24 (type stripping, no build step), then the
# bundled CLI end to end, on Node 24 and on the machine's Node 20 (the CLI promises Node >= 20).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
node_dir=$(scripts/toolchain.sh)
node24=$node_dir/bin/node
echo "== unit + conformance (node $($node24 --version))"
"$node24" --test --test-reporter=spec "test/unit/**/*.test.ts" "test/conformance/**/*.test.ts"
echo "== build"
"$node24" esbuild.mjs
echo "== CLI end to end (node $($node24 --version))"
"$node24" --test --test-reporter=spec test/cli/*.test.mjs
if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
	echo "== CLI end to end (node $(node --version))"
	node --test --test-reporter=spec test/cli/*.test.mjs
fi
