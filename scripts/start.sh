#!/usr/bin/env bash
# README's main command: builds the extension, starts the demo cluster (the project's local API server playing its
# scenario) and opens the extension in a real VS Code (code-server, installed on first use into
# ~/.cache/kube-status-lens) on the example workspace, with the demo's contexts as live roots. Prints the URL.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
node24=$(scripts/toolchain.sh)/bin/node
"$node24" esbuild.mjs --no-tests
kubeconfig=$PWD/.artifacts/demo-cluster/kubeconfig
rm -f "$kubeconfig"
"$node24" src/apiserver/main.ts --port "${DEMO_PORT:-16443}" --kubeconfig "$kubeconfig" >.artifacts/demo-cluster.log 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 100); do [ -s "$kubeconfig" ] && break; sleep 0.1; done
[ -s "$kubeconfig" ] || { cat .artifacts/demo-cluster.log; echo "the demo cluster did not start" >&2; exit 1; }
echo "Demo cluster: $(grep -m1 contexts: .artifacts/demo-cluster.log | sed 's/^ *//') (kubeconfig $kubeconfig)"
"$node24" scripts/vscode.mjs serve --workspace "${KSL_WORKSPACE:-$PWD/examples/workspace}" --port "${PORT:-8123}" \
	--env "KUBECONFIG=$kubeconfig" --contexts all \
	--setting 'kubeStatusLens.clusters.kubestellarPairs=[{"wds":"kubestellar-wds","its":"kubestellar-its","wdsName":"wds1"}]' "$@"
