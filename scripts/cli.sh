#!/usr/bin/env bash
# `npm run cli -- …`: runs the command-line tool, building its bundles first only when a source is newer than them
# (a build takes seconds; the tool answers in well under one).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
stale() {
	for bundle in dist/cli.cjs dist/cel.cjs; do
		[ -f "$bundle" ] || return 0
		[ -z "$(find src esbuild.mjs package.json package-lock.json -newer "$bundle" -print -quit)" ] || return 0
	done
	return 1
}
if stale; then scripts/node24 esbuild.mjs --no-tests >/dev/null; fi
# The caller's working folder, so relative paths mean what they typed.
cd "${INIT_CWD:-$root}"
exec "$root/scripts/node24" "$root/dist/cli.cjs" "$@"
