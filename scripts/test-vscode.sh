#!/usr/bin/env bash
# In-host integration suites (the real VS Code API inside code-server's extension host), each on its own copy of a
# fixture workspace, then the e2e stories with screenshots. Part of `npm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node24=$(scripts/toolchain.sh)/bin/node
work=$(mktemp -d /tmp/ksl-itest.XXXXXX)
trap 'rm -rf "$work"' EXIT
shots=${KSL_SCREENSHOTS:-$PWD/.artifacts/screenshots}

echo "== in-host suite: example workspace"
cp -r examples/workspace "$work/ws"
"$node24" scripts/vscode.mjs test --workspace "$work/ws" --tests "$PWD/out/test/integration/index.cjs" --env KSL_SUITE=main --env KUBECONFIG="$work/no-kubeconfig"

echo "== in-host suite: multi-root workspace"
mkdir -p "$work/multi"
cp -r examples/workspace/flux "$work/multi/team-flux"
cp -r examples/workspace/harbor "$work/multi/team-harbor"
printf '{"folders":[{"path":"team-flux"},{"path":"team-harbor"}]}\n' >"$work/multi/teams.code-workspace"
"$node24" scripts/vscode.mjs test --workspace "$work/multi/teams.code-workspace" --tests "$PWD/out/test/integration/index.cjs" --env KSL_SUITE=multiroot --env KUBECONFIG="$work/no-kubeconfig"

echo "== in-host suite: live clusters (the local API server's demo)"
"$node24" src/apiserver/main.ts --port 0 --kubeconfig "$work/demo-kubeconfig" --no-scenario >"$work/demo.log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/demo-kubeconfig" ] && break; sleep 0.1; done
cp -r examples/workspace/flux "$work/live-ws"
"$node24" scripts/vscode.mjs test --workspace "$work/live-ws" --tests "$PWD/out/test/integration/index.cjs" --env KSL_SUITE=live \
	--env KUBECONFIG="$work/demo-kubeconfig" --contexts all \
	--setting 'kubeStatusLens.clusters.kubestellarPairs=[{"wds":"kubestellar-wds","its":"kubestellar-its","wdsName":"wds1"}]'

echo "== e2e stories on the live demo (screenshots in $shots)"
"$node24" scripts/vscode.mjs shots --stories live --workspace "$work/live-ws" --out "$shots" \
	--env KUBECONFIG="$work/demo-kubeconfig" --contexts all \
	--setting 'kubeStatusLens.clusters.kubestellarPairs=[{"wds":"kubestellar-wds","its":"kubestellar-its","wdsName":"wds1"}]' \
	--setting 'kubeStatusLens.clusters.bundleDeploymentThreshold=1'
kill "$demo" 2>/dev/null || true

echo "== e2e stories (screenshots in $shots)"
cp -r examples/workspace "$work/e2e"
"$node24" scripts/vscode.mjs shots --workspace "$work/e2e" --out "$shots" --env KUBECONFIG="$work/no-kubeconfig"
