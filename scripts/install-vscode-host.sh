#!/usr/bin/env bash
# Installs a real VS Code for tests and `npm start`: code-server (VS Code 1.139.1 server + Node extension host) under
# the pinned Node 24, into a cache folder outside node_modules (~4 min cold: its native modules are compiled here),
# plus Debian's Chromium for the headless workbench. Reused when present. Prints the code-server folder.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CODE_SERVER_VERSION=4.139.1
CACHE_DIR=${KSL_CACHE_DIR:-$HOME/.cache/kube-status-lens}
dir=$CACHE_DIR/vscode-host/cs
entry=$dir/node_modules/code-server/out/node/entry.js

need=()
command -v chromium >/dev/null || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v g++ >/dev/null && command -v make >/dev/null || need+=(build-essential)
command -v curl >/dev/null || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
	echo "installing Debian packages: ${need[*]}" >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" fonts-liberation >&2
fi

node_dir=$("$here/toolchain.sh")
if [ ! -f "$entry" ] || ! grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$dir/node_modules/code-server/package.json" 2>/dev/null; then
	echo "installing code-server $CODE_SERVER_VERSION into $dir (native modules build against Node 24: a few minutes)" >&2
	mkdir -p "$dir"
	echo '{"private":true}' >"$dir/package.json"
	(cd "$dir" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" \
		npm install --no-audit --no-fund --no-save "code-server@$CODE_SERVER_VERSION" >&2)
fi
"$node_dir/bin/node" "$entry" --config /dev/null --version >/dev/null
echo "$dir/node_modules/code-server"
