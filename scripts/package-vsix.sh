#!/usr/bin/env bash
# Packages the extension as shipped (production bundle, minified, no source maps) into .artifacts/, then checks it:
# the bundle is at most 2 MiB and the .vsix holds no development files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node_dir=$(scripts/toolchain.sh)
export PATH="$node_dir/bin:$PATH"
rm -rf dist
node esbuild.mjs --production
mkdir -p .artifacts
vsix=.artifacts/kube-status-lens.vsix
rm -f "$vsix"
node node_modules/@vscode/vsce/vsce package --no-dependencies --allow-missing-repository --baseContentUrl https://example.invalid/kube-status-lens --baseImagesUrl https://example.invalid/kube-status-lens -o "$vsix" </dev/null
listing=$(node -e '
const { readFileSync } = require("node:fs");
const buf = readFileSync(process.argv[1]);
// Walk the zip central directory: enough to list names without an unzip binary.
let end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
let offset = buf.readUInt32LE(end + 16), count = buf.readUInt16LE(end + 10);
for (let i = 0; i < count; i++) {
	const nameLength = buf.readUInt16LE(offset + 28), extra = buf.readUInt16LE(offset + 30), comment = buf.readUInt16LE(offset + 32);
	console.log(buf.readUInt32LE(offset + 24) + " " + buf.toString("utf8", offset + 46, offset + 46 + nameLength));
	offset += 46 + nameLength + extra + comment;
}' "$vsix")
echo "$listing" | sed 's/^/  /'
bad=$(echo "$listing" | grep -E ' extension/(src|test|out|node_modules|bench|scripts|examples|\.ci)/|\.map$|\.ts$' || true)
if [ -n "$bad" ]; then
	echo "development files in the .vsix:" >&2
	echo "$bad" >&2
	exit 1
fi
echo "$listing" | grep -q ' extension/dist/k8s.cjs$' || { echo "the cluster client bundle is missing from the .vsix" >&2; exit 1; }
echo "$listing" | grep -q ' extension/dist/engine.cjs$' || { echo "the engine bundle is missing from the .vsix" >&2; exit 1; }
echo "$listing" | grep -q ' extension/dist/cel.cjs$' || { echo "the CEL bundle is missing from the .vsix" >&2; exit 1; }
for bundle in extension engine k8s; do
	size=$(stat -c %s "dist/$bundle.cjs")
	echo "dist/$bundle.cjs: $size bytes (budget 2097152)"
	[ "$size" -le 2097152 ] || { echo "dist/$bundle.cjs over 2 MiB" >&2; exit 1; }
done
echo ".vsix: $(stat -c %s "$vsix") bytes"
