#!/usr/bin/env bash
# README's test command, failing fast: unit and conformance tests on the pinned Node 24 (type stripping, no build
# step); the bundles; the CLI end to end on Node 24 and on the machine's Node 20; the in-host suites and e2e stories
# in a real VS Code (code-server); the .vsix as shipped, installed and activated.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node24=$(scripts/toolchain.sh)/bin/node
# npm runs on the pinned Node 24: under the machine's Node 20, packages that need Node 22 print engine warnings.
[ -d node_modules ] || PATH="$(dirname "$node24"):$PATH" npm ci --no-audit --no-fund
step() { printf '\n== %s (%s)\n' "$1" "$(date +%T)"; }

step "unit + conformance (node $($node24 --version))"
"$node24" --test --test-reporter=spec "test/unit/**/*.test.ts" "test/conformance/**/*.test.ts"

step "build"
"$node24" esbuild.mjs

step "local API server and cluster client (node $($node24 --version))"
# kubectl proves the local API server speaks the wire protocol: Debian's kubernetes-client where apt and root are
# there; elsewhere the kubectl tests say what to install and are skipped.
if ! command -v kubectl >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
	echo "installing Debian's kubernetes-client (kubectl)"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends kubernetes-client >/dev/null
fi
"$node24" --test --test-reporter=spec "test/apiserver/**/*.test.ts" $(ls test/k8s/*.test.ts >/dev/null 2>&1 && echo "test/k8s/**/*.test.ts") "test/live/**/*.test.ts"

step "CLI end to end (node $($node24 --version))"
"$node24" --test --test-reporter=spec test/cli/*.test.mjs
if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
	step "CLI end to end (node $(node --version))"
	node --test --test-reporter=spec test/cli/*.test.mjs
fi

if [ "${KSL_SKIP_VSCODE:-0}" = 1 ]; then
	echo "KSL_SKIP_VSCODE=1: in-host suites, e2e and .vsix skipped"
	exit 0
fi
step "in-host suites and e2e in code-server"
scripts/test-vscode.sh

step "npm start as a user runs it: the served workbench and its gate"
"$node24" --test --test-reporter=spec test/start/*.test.mjs

step ".vsix: package and smoke test"
scripts/package-vsix.sh
scripts/smoke-vsix.sh
