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
XDG_DATA_HOME="$work/xdg" "$node24" scripts/vscode.mjs smoke --workspace "$work/ws" --installed --extensions "$work/exts" \
	--out "${KSL_SCREENSHOTS:-$PWD/.artifacts/screenshots}"
