#!/usr/bin/env bash
# Installs the packaged .vsix into a fresh code-server extensions dir and checks that it activates as shipped.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node24=$(scripts/toolchain.sh)/bin/node
code_server=$(scripts/install-vscode-host.sh)
work=$(mktemp -d /tmp/ksl-vsix.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$node24" "$code_server/out/node/entry.js" --config /dev/null --user-data-dir "$work/ud" --extensions-dir "$work/exts" \
	--install-extension .artifacts/kube-status-lens.vsix
cp -r examples/workspace "$work/ws"
# One demo context, so the smoke test also loads the cluster client bundle as shipped.
"$node24" src/apiserver/main.ts --port 0 --cluster platform --no-scenario \
	--kubeconfig "$work/kubeconfig" >"$work/demo.log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/kubeconfig" ] && break; sleep 0.1; done
KUBECONFIG="$work/kubeconfig" XDG_DATA_HOME="$work/xdg" "$node24" scripts/vscode.mjs smoke --workspace "$work/ws" \
	--installed --extensions "$work/exts" --env KUBECONFIG="$work/kubeconfig" --contexts all \
	--out "${KSL_SCREENSHOTS:-$PWD/.artifacts/screenshots}"
