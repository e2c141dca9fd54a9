// What a context, a system or a resource is doing, as data: failures are states, never exceptions.
import type { Tone } from '../core/status/result.ts';

/** What a context, a system or a resource is doing, with a message for a human. */
export interface ConnectionState {
	readonly kind:
		| 'connecting'
		| 'ready'
		| 'paused'
		| 'cannot-reach'
		| 'login-required'
		| 'forbidden'
		| 'not-installed'
		| 'server-error'
		| 'invalid-config';
	readonly message: string;
}

/** How a state shows on a tree root or node (ResourceGraph.setRootState takes `{ tone, message }`). */
export function toneOfState(state: ConnectionState): Tone {
	switch (state.kind) {
		case 'ready':
			return 'ok';
		case 'connecting':
			return 'progressing';
		case 'paused':
			return 'suspended';
		case 'not-installed':
			return 'unknown';
		case 'login-required':
		case 'forbidden':
			return 'warning';
		case 'cannot-reach':
		case 'server-error':
		case 'invalid-config':
			return 'error';
	}
}

/** The state until the first answer. */
export const connectingState: ConnectionState = { kind: 'connecting', message: 'connecting' };
