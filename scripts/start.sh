#!/usr/bin/env bash
# README's main command: builds the extension and opens it in a real VS Code (code-server, installed on first use
# into ~/.cache/kube-status-lens) on the example workspace, then prints the URL to open.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
node24=$(scripts/toolchain.sh)/bin/node
"$node24" esbuild.mjs --no-tests
exec "$node24" scripts/vscode.mjs serve --workspace "${KSL_WORKSPACE:-$PWD/examples/workspace}" --port "${PORT:-8123}" "$@"
