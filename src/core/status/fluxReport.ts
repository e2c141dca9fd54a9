// The Flux Operator's FluxReport (fluxcd.controlplane.io/v1): the operator's report on the Flux installation of its
// cluster. Its data is in spec (written by the operator's reporter), its status holds only Ready (True, reason
// Succeeded, "Reporting finished in …"): the report's Ready says the report ran, not that Flux is healthy, so what is
// wrong is read from the spec. Fields as the FluxReport CRD declares them (controlplaneio-fluxcd/flux-operator
// api/v1 FluxReport): spec.distribution {entitlement, status, version, managedBy}, spec.components[] {name, ready,
// status, image}, spec.reconcilers[] {apiVersion, kind, stats {running, failing, suspended, totalSize}}, spec.sync
// {id, path, ready, status, source}. `failing` counts Ready False objects except those waiting for a dependency;
// `running` is all but the suspended ones.
import { getArray, getBool, getInt, getRecord, getString } from '../model/object.ts';

/** What a FluxReport says of the installation: the headline, the lines behind it, and whether anything is wrong. */
export interface FluxReportSummary {
	readonly headline: string;
	/** The short counts of a tree row: "4/4 components · 3 failing". */
	readonly counts: string;
	readonly lines: readonly string[];
	readonly problems: readonly string[];
}

function firstLine(text: string): string {
	return text.split('\n', 1)[0]?.trim() ?? '';
}

/** Reads a FluxReport's spec; never throws (missing fields read as absent). */
export function fluxReportSummaryOf(report: unknown): FluxReportSummary {
	const lines: string[] = [];
	const problems: string[] = [];
	const headline: string[] = [];
	const counts: string[] = [];

	const distribution = getRecord(report, 'spec', 'distribution');
	const version = getString(distribution, 'version') ?? '';
	const installed = getString(distribution, 'status') ?? '';
	if (distribution) {
		headline.push(version ? `Flux ${version}` : installed || 'Flux');
		const managedBy = getString(distribution, 'managedBy');
		const entitlement = getString(distribution, 'entitlement');
		lines.push(
			`Distribution: ${[
				installed,
				version,
				managedBy ? `managed by ${managedBy}` : '',
				entitlement ? `entitlement ${entitlement}` : '',
			]
				.filter((part) => part !== '')
				.join(', ')}.`,
		);
		if (installed === 'Not Installed') problems.push('Flux is not installed on this cluster');
	}

	const components = (getArray(report, 'spec', 'components') ?? []).filter(
		(item) => getString(item, 'name') !== undefined,
	);
	if (components.length > 0) {
		const notReady = components.filter((item) => getBool(item, 'ready') !== true);
		headline.push(`${components.length - notReady.length}/${components.length} components ready`);
		counts.push(`${components.length - notReady.length}/${components.length} components`);
		for (const item of notReady) {
			const status = firstLine(getString(item, 'status') ?? '');
			problems.push(
				`component ${getString(item, 'name') ?? ''} is not ready${status ? `: ${status}` : ''}`,
			);
		}
	}

	let failing = 0;
	let suspended = 0;
	for (const item of getArray(report, 'spec', 'reconcilers') ?? []) {
		const kind = getString(item, 'kind');
		if (!kind) continue;
		const stats = getRecord(item, 'stats');
		const itemFailing = getInt(stats, 'failing') ?? 0;
		const itemSuspended = getInt(stats, 'suspended') ?? 0;
		failing += itemFailing;
		suspended += itemSuspended;
		const size = getString(stats, 'totalSize');
		lines.push(
			`${kind}: ${getInt(stats, 'running') ?? 0} running, ${itemFailing} failing, ${itemSuspended} suspended${size ? `, ${size} of artifacts` : ''}.`,
		);
		if (itemFailing > 0) problems.push(`${itemFailing} ${kind} failing`);
	}
	if (failing > 0) {
		headline.push(`${failing} failing`);
		counts.push(`${failing} failing`);
	}
	if (suspended > 0) headline.push(`${suspended} suspended`);

	const sync = getRecord(report, 'spec', 'sync');
	if (sync) {
		const id = getString(sync, 'id') ?? 'sync';
		const ready = getBool(sync, 'ready') === true;
		const status = firstLine(getString(sync, 'status') ?? '');
		const source = getString(sync, 'source');
		lines.push(
			`Sync ${id}${source ? ` from ${source}` : ''}: ${ready ? 'ready' : 'not ready'}${status ? ` (${status})` : ''}.`,
		);
		headline.push(`sync ${ready ? 'ready' : 'not ready'}`);
		if (!ready) {
			problems.push(`sync ${id} is not ready${status ? `: ${status}` : ''}`);
			counts.push('sync not ready');
		}
	}
	return { headline: headline.join(' · '), counts: counts.join(' · '), lines, problems };
}
