// A kubeconfig for local servers, as kubectl and client-node read it: one cluster, user and context per entry,
// with the CA inline (`certificate-authority-data`) so the file works from any directory.

import { stringify } from 'yaml';

/** One context of a kubeconfig. */
export interface KubeconfigContext {
	readonly name: string;
	readonly server: { readonly url: string; readonly caPem: string };
	/** Bearer token; or a client certificate; or an exec plugin (any one). */
	readonly token?: string;
	readonly clientCertificate?: { readonly certPem: string; readonly keyPem: string };
	readonly exec?: { readonly command: string; readonly args?: readonly string[] };
	readonly namespace?: string;
}

function base64(text: string): string {
	return Buffer.from(text, 'utf8').toString('base64');
}

/** The YAML text of a kubeconfig with these contexts; the current context is `current` or the first one. */
export function kubeconfigText(contexts: readonly KubeconfigContext[], current?: string): string {
	const config = {
		apiVersion: 'v1',
		kind: 'Config',
		preferences: {},
		'current-context': current ?? contexts[0]?.name ?? '',
		clusters: contexts.map((context) => ({
			name: context.name,
			cluster: {
				server: context.server.url,
				'certificate-authority-data': base64(context.server.caPem),
			},
		})),
		users: contexts.map((context) => ({
			name: context.name,
			user: {
				...(context.token === undefined ? {} : { token: context.token }),
				...(context.clientCertificate === undefined
					? {}
					: {
							'client-certificate-data': base64(context.clientCertificate.certPem),
							'client-key-data': base64(context.clientCertificate.keyPem),
						}),
				...(context.exec === undefined
					? {}
					: {
							exec: {
								apiVersion: 'client.authentication.k8s.io/v1',
								command: context.exec.command,
								args: context.exec.args ?? [],
								interactiveMode: 'Never',
							},
						}),
			},
		})),
		contexts: contexts.map((context) => ({
			name: context.name,
			context: {
				cluster: context.name,
				user: context.name,
				...(context.namespace === undefined ? {} : { namespace: context.namespace }),
			},
		})),
	};
	return stringify(config);
}
