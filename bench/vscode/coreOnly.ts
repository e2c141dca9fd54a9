// Run by bench/vscode.ts in a fresh Node (cold, as the extension host meets the code): what the core alone spends on a
// workspace's files, parsing and building the graph one file at a time as the extension does. Prints JSON.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifests } from '../../src/core/manifest/parse.ts';
import { ResourceGraph } from '../../src/core/tree/model.ts';

const folder = process.argv[2] ?? '.';
const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
	.filter((name) => /\.(ya?ml|json)$/.test(name))
	.sort()
	.map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));
const graph = new ResourceGraph();
graph.addRoot('workspace', 'Workspace manifests', 'file');
let parseMs = 0;
let graphMs = 0;
for (const { name, text } of files) {
	let mark = performance.now();
	const parsed = parseManifests(text, { fileName: name });
	parseMs += performance.now() - mark;
	mark = performance.now();
	graph.setSourceObjects(
		'workspace',
		name,
		parsed.objects.map((entry) => ({
			object: entry.object,
			line: entry.range.start.line,
			label: name,
		})),
	);
	graphMs += performance.now() - mark;
}
console.log(
	JSON.stringify({ files: files.length, objects: graph.objectCount(), parseMs, graphMs }),
);
