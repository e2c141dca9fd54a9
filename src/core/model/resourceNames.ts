// The plural resource name Kubernetes serves a kind under, as kubectl guesses it when discovery is not at hand.

/** Plural resources of common kinds whose plural is not the lower-cased kind plus "s". */
const irregularPlurals: Readonly<Record<string, string>> = {
	Ingress: 'ingresses',
	NetworkPolicy: 'networkpolicies',
	PodSecurityPolicy: 'podsecuritypolicies',
	StorageClass: 'storageclasses',
	IngressClass: 'ingressclasses',
	PriorityClass: 'priorityclasses',
	RuntimeClass: 'runtimeclasses',
	Endpoints: 'endpoints',
	BindingPolicy: 'bindingpolicies',
	HelmRepository: 'helmrepositories',
	GitRepository: 'gitrepositories',
	OCIRepository: 'ocirepositories',
	Policy: 'policies',
};

/** The plural resource name of a kind: a table for irregular ones, English rules otherwise (as kubectl guesses). */
export function resourceOfKind(kind: string): string {
	const irregular = Object.hasOwn(irregularPlurals, kind) ? irregularPlurals[kind] : undefined;
	if (irregular) return irregular;
	const lower = kind.toLowerCase();
	if (lower === '') return '';
	if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
	if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
	return `${lower}s`;
}
