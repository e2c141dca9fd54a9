import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
	fleetFindingKeyOf,
	fleetFindingsByObject,
} from '../../../../src/core/checks/fleetTroubleshooting.ts';
import {
	fleetFindingLines,
	fleetFindingsRowText,
} from '../../../../src/core/explain/fleetFindingLines.ts';
import { parseManifests } from '../../../../src/core/manifest/parse.ts';
import { repoRoot } from '../../../support/conformance.ts';

const dump = parseManifests(
	readFileSync(join(repoRoot, 'examples/workspace/fleet/dump.yaml'), 'utf8'),
).objects.map((entry) => entry.object);

describe("Fleet's troubleshooting findings on a tree root's objects", () => {
	const byObject = fleetFindingsByObject(dump, undefined);

	it('files each finding under the object it is about', () => {
		const stuck = dump.find(
			(object) =>
				object.kind === 'BundleDeployment' &&
				(fleetFindingsByObject(dump, undefined).get(fleetFindingKeyOf(object)) ?? []).some(
					(finding) => finding.code === 'fleet-stuck-bundle-deployments',
				),
		);
		assert.ok(stuck, 'the example dump has a stuck BundleDeployment');
		assert.match(JSON.stringify(stuck), /prod-us-1/);
	});

	it('finds nothing in manifests without status', () => {
		const manifests = parseManifests(
			readFileSync(join(repoRoot, 'examples/workspace/fleet/manifests/gitrepo.yaml'), 'utf8'),
		).objects.map((entry) => entry.object);
		assert.equal(fleetFindingsByObject(manifests, undefined).size, 0);
	});

	it('reads as Markdown with errors first, code and escaped message, and a cap', () => {
		const lines = fleetFindingLines(
			[
				{ code: 'fleet-large-bundles', severity: 'warning', message: 'big <b>bundle</b>' },
				{ code: 'fleet-stuck-bundle-deployments', severity: 'error', message: 'stuck *here*' },
				{ code: 'fleet-large-bundles', severity: 'warning', message: 'two' },
			],
			2,
		);
		assert.equal(lines[0], '**What `fleet analyze` would report:**');
		assert.match(lines[1] ?? '', /^- ✗ `fleet-stuck-bundle-deployments` stuck \\\*here\\\*$/);
		assert.match(lines[2] ?? '', /^- ⚠ `fleet-large-bundles` big /);
		assert.ok(!lines.join('\n').includes('<b>'));
		assert.equal(lines[3], '- … 1 more');
		assert.ok(byObject.size > 0);
	});

	it('says on the row the worst finding in words, and how many more', () => {
		assert.equal(fleetFindingsRowText([]), undefined);
		assert.equal(
			fleetFindingsRowText([
				{ code: 'fleet-large-bundles', severity: 'warning', message: 'x' },
				{ code: 'fleet-stuck-bundle-deployments', severity: 'error', message: 'y' },
			]),
			'fleet analyze: stuck bundle deployments +1',
		);
	});
});
