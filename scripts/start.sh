#!/usr/bin/env bash
# README's main command: builds the extension, starts the demo cluster (the project's local API server playing its
# scenario) and opens the extension in a real VS Code (code-server, installed on first use into
# ~/.cache/kube-status-lens) on the example workspace, with the demo's contexts as live roots. Prints the URL.
# Ports are free ones unless PORT (the workbench) or DEMO_PORT (the first demo cluster) say otherwise; DEMO_PACE
# (slow, fast or paused) sets the demo's pace; each run has a
# demo kubeconfig of its own, so two runs side by side do not disturb each other.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node24=$(scripts/toolchain.sh)/bin/node
# npm runs on the pinned Node 24: under the machine's Node 20, packages that need Node 22 print engine warnings.
[ -d node_modules ] || PATH="$(dirname "$node24"):$PATH" npm ci --no-audit --no-fund
"$node24" esbuild.mjs --no-tests
# Install (or check) the workbench before the demo starts, so a first run's long build happens up front.
scripts/install-vscode-host.sh >/dev/null

mkdir -p .artifacts
run=$(mktemp -d "$PWD/.artifacts/start.XXXXXX")
kubeconfig=$run/kubeconfig
"$node24" src/apiserver/main.ts --port "${DEMO_PORT:-0}" --kubeconfig "$kubeconfig" --pace "${DEMO_PACE:-slow}" >"$run/demo-cluster.log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true; rm -rf "$run"' EXIT
trap 'exit 130' INT TERM
for _ in $(seq 300); do
	[ -s "$kubeconfig" ] && break
	kill -0 "$demo" 2>/dev/null || break
	sleep 0.1
done
if [ ! -s "$kubeconfig" ]; then
	cat "$run/demo-cluster.log" >&2
	echo "npm start: the demo cluster did not start (its log is above)" >&2
	exit 1
fi
echo "Demo cluster: $(grep -m1 contexts: "$run/demo-cluster.log" | sed 's/^ *//')"
echo "  kubectl: export KUBECONFIG=$kubeconfig"
echo "  $(grep -m1 scenario: "$run/demo-cluster.log" | sed 's/^ *//')"
port_args=()
[ -n "${PORT:-}" ] && port_args=(--port "$PORT")
"$node24" scripts/vscode.mjs serve --workspace "${KSL_WORKSPACE:-$PWD/examples/workspace}" ${port_args[@]+"${port_args[@]}"} \
	--env "KUBECONFIG=$kubeconfig" --contexts all \
	--setting 'kubeStatusLens.clusters.kubestellarPairs=[{"wds":"kubestellar-wds","its":"kubestellar-its","wdsName":"wds1"}]' "$@"
