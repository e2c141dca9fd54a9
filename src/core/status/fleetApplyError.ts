// Which resource a Fleet agent failed to apply, read from the error it wrote on the BundleDeployment's Deployed
// condition. The agent passes Helm's and the API server's words through, in these forms:
//   Helm upgrade:   cannot patch "frontend" with kind Deployment: …
//   Helm install:   Service "web" in namespace "shop" exists and cannot be imported into the current release …
//   API server:     Deployment.apps "frontend" is invalid: …   (also "is forbidden", "already exists")
import { resourceOfKind } from '../model/resourceNames.ts';
import type { ResourceKey } from './fleetSummary.ts';

/** A resource named by an apply error: kind as written, and the namespace when the error says it. */
interface NamedResource {
	readonly kind: string;
	readonly name: string;
	readonly namespace: string | undefined;
}

const helmPatch =
	/cannot (?:patch|create|delete|update) "([^"]+)" with kind ([A-Za-z][A-Za-z0-9]*)/;
const helmImport =
	/\b([A-Z][A-Za-z0-9]*) "([^"]+)" in namespace "([^"]*)" exists and cannot be imported/;
const apiServer =
	/\b([A-Za-z][A-Za-z0-9]*)(?:\.[a-z0-9.-]+)? "([^"]+)" (?:is invalid|is forbidden|already exists)/;

function namedIn(message: string): NamedResource | undefined {
	const patch = helmPatch.exec(message);
	if (patch?.[1] && patch[2]) return { kind: patch[2], name: patch[1], namespace: undefined };
	const imported = helmImport.exec(message);
	if (imported?.[1] && imported[2]) {
		return { kind: imported[1], name: imported[2], namespace: imported[3] || undefined };
	}
	const invalid = apiServer.exec(message);
	if (invalid?.[1] && invalid[2]) {
		return { kind: invalid[1], name: invalid[2], namespace: undefined };
	}
	return undefined;
}

/** Whether a kind as an error writes it (Deployment, deployments) is this resource's kind. */
function sameKind(written: string, kind: string): boolean {
	const lower = written.toLowerCase();
	return lower === kind.toLowerCase() || lower === resourceOfKind(kind);
}

/**
 * The resource an apply error names, completed from the BundleDeployment's own resource list (apiVersion,
 * namespace); the default namespace stands in when the list does not have it. Undefined when no resource is named.
 */
export function resourceOfApplyError(
	message: string,
	resources: readonly ResourceKey[],
	defaultNamespace: string,
): ResourceKey | undefined {
	const named = namedIn(message);
	if (!named) return undefined;
	const listed = resources.find(
		(resource) =>
			resource.name === named.name &&
			sameKind(named.kind, resource.kind) &&
			(named.namespace === undefined || resource.namespace === named.namespace),
	);
	if (listed) return listed;
	return {
		kind: named.kind,
		apiVersion: '',
		namespace: named.namespace ?? defaultNamespace,
		name: named.name,
	};
}
