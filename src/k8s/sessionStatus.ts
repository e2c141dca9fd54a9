// What a view is told about a context: its state, its systems' and its resources' states, and the BundleDeployment
// mode, computed from what the session holds at the moment.
import {
	isUnwatchedBundleDeployment,
	rollUpsOnlyState,
	type BundleDeploymentMode,
} from './bundleDeployments.ts';
import { connectingState, type ConnectionState } from './connectionState.ts';
import {
	displayNameOf,
	watchedSystemOf,
	watchedSystems,
	type Discovery,
	type WatchedResource,
	type WatchedSystem,
} from './discovery.ts';
import type { Reflector } from './reflector.ts';
import type { ObjectStore } from './store.ts';

/** A resource's state and how many objects the cache holds for it. */
export interface ResourceStatus {
	readonly resource: WatchedResource;
	readonly state: ConnectionState;
	readonly count: number;
	/** False when the resource is deliberately not watched (BundleDeployments in roll-ups-only mode). */
	readonly watched: boolean;
	/** The namespaces listed one by one because listing across namespaces is forbidden. */
	readonly namespaces?: readonly string[];
}

/** A system's state: not installed when none of its API groups is served. */
export interface SystemStatus {
	readonly system: WatchedSystem;
	readonly state: ConnectionState;
	/** The served API groups of the system. */
	readonly groups: readonly string[];
}

/** Everything a view needs to show about a context. */
export interface SessionStatus {
	readonly context: string;
	readonly state: ConnectionState;
	readonly systems: readonly SystemStatus[];
	readonly resources: readonly ResourceStatus[];
	readonly bundleDeployments: BundleDeploymentMode;
}

/** What a session's status is computed from. */
export interface SessionSnapshot {
	readonly context: string;
	readonly store: ObjectStore;
	readonly discovery: Discovery | undefined;
	readonly discoveryState: ConnectionState;
	/** Between start() and pause()/dispose(). */
	readonly running: boolean;
	readonly disposed: boolean;
	readonly bundleDeployments: BundleDeploymentMode;
	readonly reflectors: ReadonlyMap<string, readonly Reflector[]>;
	/** The namespaces each resource is listed in one by one, when listing across namespaces is forbidden. */
	readonly fallbackNamespaces: ReadonlyMap<string, readonly string[]>;
}

/** The context's state, its systems and resources, and the BundleDeployment mode. */
export function sessionStatusOf(snapshot: SessionSnapshot): SessionStatus {
	const resources = resourceStatusesOf(snapshot);
	return {
		context: snapshot.context,
		state: contextStateOf(snapshot, resources),
		systems: systemStatusesOf(snapshot, resources),
		resources,
		bundleDeployments: snapshot.bundleDeployments,
	};
}

function resourceStatusesOf(snapshot: SessionSnapshot): ResourceStatus[] {
	const resources = snapshot.discovery?.resources ?? [];
	return resources.map((resource): ResourceStatus => {
		const count = snapshot.store.countOf(resource.id);
		if (isUnwatchedBundleDeployment(resource, snapshot.bundleDeployments)) {
			return {
				resource,
				count,
				watched: false,
				state: rollUpsOnlyState(snapshot.bundleDeployments),
			};
		}
		const reflectors = snapshot.reflectors.get(resource.id);
		const namespaces = snapshot.fallbackNamespaces.get(resource.id);
		const base = { resource, count, watched: true, ...(namespaces ? { namespaces } : {}) };
		if (!snapshot.running) return { ...base, state: snapshot.discoveryState };
		if (!reflectors || reflectors.length === 0) return { ...base, state: connectingState };
		return { ...base, state: combinedStateOf(resource, reflectors, namespaces) };
	});
}

/** One resource's state from its reflectors: one across namespaces, or one per fallback namespace. */
function combinedStateOf(
	resource: WatchedResource,
	reflectors: readonly Reflector[],
	namespaces: readonly string[] | undefined,
): ConnectionState {
	const first = reflectors[0];
	if (!namespaces || reflectors.length === 1) {
		if (!first || !first.answered) return connectingState;
		if (!namespaces) return first.state;
	}
	if (reflectors.some((reflector) => !reflector.answered)) return connectingState;
	const readyIn = reflectors.filter((reflector) => reflector.state.kind === 'ready');
	const failed = reflectors.filter((reflector) => reflector.state.kind !== 'ready');
	const list = (items: readonly Reflector[]): string =>
		items.map((item) => item.namespace ?? '').join(', ');
	if (readyIn.length > 0) {
		return {
			kind: 'ready',
			message: `watching in namespace${readyIn.length > 1 ? 's' : ''} ${list(readyIn)} only: no permission to list ${displayNameOf(resource)} across namespaces${failed.length > 0 ? ` (and not in ${list(failed)})` : ''}`,
		};
	}
	if (failed.every((reflector) => reflector.state.kind === 'forbidden')) {
		return {
			kind: 'forbidden',
			message: `no permission to list ${displayNameOf(resource)} across namespaces or in namespace${failed.length > 1 ? 's' : ''} ${list(failed)}`,
		};
	}
	return failed.find((reflector) => reflector.state.kind !== 'forbidden')?.state ?? connectingState;
}

function systemStatusesOf(
	snapshot: SessionSnapshot,
	resources: readonly ResourceStatus[],
): SystemStatus[] {
	return watchedSystems.map((system): SystemStatus => {
		const groups = [...(snapshot.discovery?.groups.keys() ?? [])].filter(
			(group) => watchedSystemOf(group) === system,
		);
		if (!snapshot.discovery) return { system, groups, state: snapshot.discoveryState };
		if (groups.length === 0) {
			return {
				system,
				groups,
				state: { kind: 'not-installed', message: `${system} is not installed on this cluster` },
			};
		}
		const groupFailure = groups
			.map((group) => snapshot.discovery?.groups.get(group))
			.find((state) => state !== undefined);
		const mine = resources.filter((entry) => entry.resource.system === system);
		const problem = mine.find((entry) => entry.state.kind !== 'ready');
		const state: ConnectionState = !snapshot.running
			? snapshot.discoveryState
			: problem
				? problem.state.kind === 'connecting'
					? connectingState
					: {
							kind: problem.state.kind,
							message: `${displayNameOf(problem.resource)}: ${problem.state.message}`,
						}
				: (groupFailure ?? {
						kind: 'ready',
						message: `${mine.length} resource${mine.length === 1 ? '' : 's'} watched`,
					});
		return { system, groups, state };
	});
}

function contextStateOf(
	snapshot: SessionSnapshot,
	resources: readonly ResourceStatus[],
): ConnectionState {
	if (snapshot.disposed) return { kind: 'paused', message: 'closed' };
	if (!snapshot.running || snapshot.discoveryState.kind !== 'ready') return snapshot.discoveryState;
	const pending = resources.filter((entry) => entry.state.kind === 'connecting').length;
	if (pending > 0) {
		return {
			kind: 'connecting',
			message: `listing: ${resources.length - pending} of ${resources.length} resources`,
		};
	}
	const watched = resources.filter((entry) => entry.watched);
	const failures = watched.filter((entry) => entry.state.kind !== 'ready');
	// Everything failing the same way is the context's problem, e.g. the server went away.
	const first = failures[0];
	if (
		first &&
		failures.length === watched.length &&
		(first.state.kind === 'cannot-reach' ||
			first.state.kind === 'login-required' ||
			first.state.kind === 'server-error') &&
		failures.every((entry) => entry.state.kind === first.state.kind)
	) {
		return first.state;
	}
	const problems = failures.length > 0 ? ` (${failures.length} with problems)` : '';
	return {
		kind: 'ready',
		message: `${watched.length} resource${watched.length === 1 ? '' : 's'} watched${problems}`,
	};
}
