#!/usr/bin/env bash
# Installs a real VS Code for tests and `npm start`: code-server (VS Code 1.139.1 server + Node extension host) under
# the pinned Node 24, into a cache folder outside node_modules (~4 min cold: its native modules are compiled here),
# plus a Chromium for the headless workbench. Reused when present. Prints the code-server folder.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CODE_SERVER_VERSION=4.139.1
CACHE_DIR=${KSL_CACHE_DIR:-$HOME/.cache/kube-status-lens}
dir=$CACHE_DIR/vscode-host/cs-$CODE_SERVER_VERSION
entry=$dir/node_modules/code-server/out/node/entry.js
complete=$dir/.installed

say() { printf 'vscode host: %s\n' "$*" >&2; }

# What the build and the browser need from the system: Chromium, a C++ toolchain (code-server's native modules are
# compiled here, since their prebuilt binaries come from hosts npm installs cannot reach) and Kerberos headers (the
# kerberos module). On Debian/Ubuntu as root they are installed; elsewhere the script says what to install.
missing=()
if [ "$(uname -s)" = Linux ]; then
	[ -n "${CHROMIUM:-}" ] || command -v chromium >/dev/null || missing+=(chromium)
	command -v g++ >/dev/null && command -v make >/dev/null || missing+=(build-essential)
	command -v python3 >/dev/null || missing+=(python3)
	if command -v dpkg >/dev/null; then
		dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
	elif ! [ -f /usr/include/gssapi/gssapi.h ]; then
		missing+=(libkrb5-dev)
	fi
	if [ ${#missing[@]} -gt 0 ]; then
		if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
			say "installing Debian packages: ${missing[*]}"
			apt-get update -qq >&2
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-liberation >&2
		else
			say "missing: ${missing[*]}. Install them first, e.g. on Debian/Ubuntu:"
			say "  sudo apt-get install --no-install-recommends ${missing[*]/build-essential/build-essential} fonts-liberation"
			say "(Fedora: chromium gcc-c++ make python3 krb5-devel; Alpine: chromium build-base python3 krb5-dev)."
			say "A Chromium elsewhere: CHROMIUM=/path/to/chrome. Only the Node tests: KSL_SKIP_VSCODE=1 npm test."
			exit 1
		fi
	fi
elif [ "$(uname -s)" = Darwin ]; then
	xcode-select -p >/dev/null 2>&1 || {
		say "code-server's native modules need the Xcode command line tools: run 'xcode-select --install'"
		exit 1
	}
fi

node_dir=$("$here/toolchain.sh")
if [ ! -f "$complete" ] || [ ! -f "$entry" ]; then
	say "installing code-server $CODE_SERVER_VERSION into $dir (native modules build against Node 24: a few minutes)"
	rm -rf "$dir"
	mkdir -p "$dir"
	# npm (11.16 on) runs a dependency's install scripts only once the project approves them, and warns until then:
	# code-server's postinstall installs VS Code's own modules and argon2 builds with node-gyp. Those nested installs
	# in code-server's folders read their own package.json, so they are approved as a whole below.
	echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' >"$dir/package.json"
	# Run from an npm script, this shell inherits npm's environment: the directory of the Node that runs npm first on
	# PATH, NODE, and npm_* variables that the nested npm would read as its own config (npm_config_user_agent names
	# Node 20, which code-server's postinstall checks and refuses; npm_config_local_prefix names this project).
	# Start the install from a clean environment with Node 24 first on PATH, keeping only the user's network and
	# cache settings.
	npm_cli=$(command -v npm)
	(
		cd "$dir"
		while IFS='=' read -r name _; do
			case "$name" in
			npm_config_registry | npm_config_*proxy | npm_config_cafile | npm_config_strict_ssl | npm_config_cache | npm_config_userconfig) ;;
			npm_* | NPM_* | NODE | NODE_OPTIONS | INIT_CWD) unset "$name" ;;
			esac
		done < <(env)
		export PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" npm_config_dangerously_allow_all_scripts=true
		"$node_dir/bin/node" "$(readlink -f "$npm_cli" 2>/dev/null || echo "$npm_cli")" install --no-audit --no-fund \
			--no-save "code-server@$CODE_SERVER_VERSION" >&2
	) || {
		say "the code-server install failed (above); the next run starts it afresh"
		exit 1
	}
	touch "$complete"
fi
"$node_dir/bin/node" "$entry" --config /dev/null --version >/dev/null
echo "$dir/node_modules/code-server"
