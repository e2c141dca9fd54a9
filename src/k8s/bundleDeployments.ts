// BundleDeployments, the one kind a large fleet has too many of to watch: counted at each discovery to decide
// whether they are watched, and listed on demand (by label selector) when they are not.
import { isRecord } from '../core/model/object.ts';
import type { ConnectionState } from './connectionState.ts';
import {
	collectionPathOf,
	displayNameOf,
	type Discovery,
	type WatchedResource,
} from './discovery.ts';
import { listPages } from './paging.ts';
import { failureOf, getJson, RequestFailure, type ClientSettings } from './requests.ts';
import { trimObject, type StoredObject } from './store.ts';

/**
 * How BundleDeployments are handled: all watched, or (above the threshold) not watched, relying on the roll-ups
 * Fleet writes into GitRepo, Bundle and Cluster status and listing a node's BundleDeployments when asked.
 */
export interface BundleDeploymentMode {
	readonly mode: 'unknown' | 'watch-all' | 'roll-ups-only';
	readonly threshold: number;
	/** The count the decision was made on; absent until counted, or when counting stopped early. */
	readonly count?: number;
	/** Counting stopped once the count went above the threshold: there are at least this many. */
	readonly atLeast?: boolean;
}

/** The result of an on-demand list: the objects, or why there are none. */
export type OnDemandList =
	| { readonly kind: 'ok'; readonly objects: readonly StoredObject[] }
	| { readonly kind: 'failed'; readonly state: ConnectionState };

const bundleDeploymentGroup = 'fleet.cattle.io';
const bundleDeploymentKind = 'BundleDeployment';

/** The BundleDeployment resource among those discovered, if the cluster serves it. */
export function bundleDeploymentResourceOf(
	resources: readonly WatchedResource[],
): WatchedResource | undefined {
	return resources.find(
		(entry) => entry.group === bundleDeploymentGroup && entry.kind === bundleDeploymentKind,
	);
}

/** Whether a resource is BundleDeployments left unwatched by the mode. */
export function isUnwatchedBundleDeployment(
	resource: WatchedResource,
	mode: BundleDeploymentMode,
): boolean {
	return (
		resource.group === bundleDeploymentGroup &&
		resource.kind === bundleDeploymentKind &&
		mode.mode === 'roll-ups-only'
	);
}

/** Whether two decisions are the same, count included (a view shows the count). */
export function sameBundleDeploymentMode(
	a: BundleDeploymentMode,
	b: BundleDeploymentMode,
): boolean {
	return (
		a.mode === b.mode &&
		a.threshold === b.threshold &&
		a.count === b.count &&
		a.atLeast === b.atLeast
	);
}

/** What unwatched BundleDeployments show: why they are not watched, and when they will be again. */
export function rollUpsOnlyState(mode: BundleDeploymentMode): ConnectionState {
	const { count: counted = 0, atLeast, threshold } = mode;
	const number = (value: number): string => value.toLocaleString('en-US');
	const why =
		counted > threshold
			? `is above the threshold of ${number(threshold)}`
			: `was above the threshold of ${number(threshold)}; watched again below ${number(Math.ceil((threshold * 9) / 10))}`;
	return {
		kind: 'ready',
		message: `roll-ups only: ${atLeast ? 'more than ' : ''}${number(counted)} BundleDeployments ${why}; they are listed when a node is expanded`,
	};
}

/** What deciding the mode needs from a session. */
export interface BundleDeploymentCounting {
	readonly client: ClientSettings;
	/** The context, for the log. */
	readonly context: string;
	/** The mode decided last time. */
	readonly previous: BundleDeploymentMode;
	readonly threshold: number;
	readonly pageSize: number;
	/** The namespaces to count in one by one when counting across namespaces is forbidden. */
	readonly namespacesForFallback: () => readonly string[];
	readonly log: (message: string) => void;
}

/**
 * Counts BundleDeployments with a list of limit 1 (the server's remainingItemCount), or by counting pages when
 * the server gives no count, stopping once above the threshold. Roll-ups-only mode ends only below 90% of the
 * threshold. When counting fails the previous decision stands (watch all at first).
 */
export async function decideBundleDeploymentMode(
	discovery: Discovery,
	counting: BundleDeploymentCounting,
	stop: AbortSignal,
): Promise<BundleDeploymentMode> {
	const { client, previous, threshold } = counting;
	const resource = bundleDeploymentResourceOf(discovery.resources);
	if (!resource) return { mode: 'unknown', threshold };
	const countIn = async (
		namespace: string | undefined,
		budget: number,
	): Promise<{ count: number; atLeast: boolean }> => {
		const path = collectionPathOf(resource, namespace);
		const what = `count ${displayNameOf(resource)}`;
		const first = await getJson(client, path, { limit: 1 }, what, stop);
		if (!isRecord(first) || !Array.isArray(first.items)) return { count: 0, atLeast: false };
		const metadata = isRecord(first.metadata) ? first.metadata : {};
		if (typeof metadata.remainingItemCount === 'number') {
			return { count: first.items.length + metadata.remainingItemCount, atLeast: false };
		}
		let count = first.items.length;
		let continueToken =
			typeof metadata.continue === 'string' && metadata.continue !== ''
				? metadata.continue
				: undefined;
		while (continueToken !== undefined && count <= budget) {
			const page = await getJson(
				client,
				path,
				{ limit: counting.pageSize, continue: continueToken },
				what,
				stop,
			);
			if (!isRecord(page) || !Array.isArray(page.items)) break;
			count += page.items.length;
			const pageMetadata = isRecord(page.metadata) ? page.metadata : {};
			continueToken =
				typeof pageMetadata.continue === 'string' && pageMetadata.continue !== ''
					? pageMetadata.continue
					: undefined;
		}
		return { count, atLeast: continueToken !== undefined };
	};
	try {
		let counted: { count: number; atLeast: boolean };
		try {
			counted = await countIn(undefined, threshold);
		} catch (error) {
			const namespaces = counting.namespacesForFallback();
			if (
				!(error instanceof RequestFailure) ||
				error.kind !== 'forbidden' ||
				namespaces.length === 0
			) {
				throw error;
			}
			counted = { count: 0, atLeast: false };
			for (const namespace of namespaces) {
				const part = await countIn(namespace, threshold - counted.count);
				counted = { count: counted.count + part.count, atLeast: counted.atLeast || part.atLeast };
				if (counted.count > threshold) break;
			}
		}
		const rollUpsOnly =
			counted.count > threshold ||
			(previous.mode === 'roll-ups-only' && counted.count * 10 >= threshold * 9);
		return {
			mode: rollUpsOnly ? 'roll-ups-only' : 'watch-all',
			threshold,
			count: counted.count,
			...(counted.atLeast ? { atLeast: true } : {}),
		};
	} catch (error) {
		if (stop.aborted) return previous;
		// Counting failed (forbidden, say): the BundleDeployment watch reports the same problem itself.
		const failure = failureOf(error, client.server, client.requestTimeoutMs);
		counting.log(`counting BundleDeployments in ${counting.context} failed: ${failure.message}`);
		return previous.mode === 'unknown' ? { mode: 'watch-all', threshold } : previous;
	}
}

/**
 * Lists BundleDeployments by label selector in each given scope (a namespace, or undefined for all), trimmed as
 * the cache trims them. A failure is returned as a state.
 */
export async function listBundleDeploymentsOnDemand(
	client: ClientSettings,
	resource: WatchedResource,
	scopes: readonly (string | undefined)[],
	labelSelector: string,
	pageSize: number,
	stop: AbortSignal,
): Promise<OnDemandList> {
	const objects: StoredObject[] = [];
	try {
		for (const scope of scopes) {
			const pages = listPages(client, resource, scope, { labelSelector }, pageSize, stop);
			for await (const page of pages) {
				for (const item of page.items) {
					const trimmed = trimObject(item);
					if (trimmed) objects.push(trimmed);
				}
			}
		}
	} catch (error) {
		const failure = failureOf(error, client.server, client.requestTimeoutMs);
		const kind =
			failure.kind === 'gone' || failure.kind === 'stopped' ? 'server-error' : failure.kind;
		return { kind: 'failed', state: { kind, message: failure.message } };
	}
	return { kind: 'ok', objects };
}
