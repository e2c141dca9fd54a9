/** The systems whose status rules the engine knows; `kubernetes` covers everything else (kstatus). */
export type SystemId = 'fleet' | 'kubestellar' | 'harbor' | 'flux' | 'aso' | 'kubernetes';

/** How a state feels to a user, ordered best to worst for roll-ups by `toneRank`. */
export const tones = ['ok', 'suspended', 'progressing', 'unknown', 'warning', 'error'] as const;
/** A tone: ok, progressing, warning, error, suspended or unknown. */
export type Tone = (typeof tones)[number];

/** Rank of a tone, higher is worse. */
export function toneRank(tone: Tone): number {
	return tones.indexOf(tone);
}

/** The worse of two tones. */
export function worseTone(a: Tone, b: Tone): Tone {
	return toneRank(a) >= toneRank(b) ? a : b;
}

/** kstatus statuses; `Unknown` stands for an error from `status.Compute` (e.g. an unknown Pod phase). */
export type KstatusStatus = 'InProgress' | 'Failed' | 'Current' | 'Terminating' | 'Unknown';

/** The kstatus answer for an object. */
export interface KstatusResult {
	readonly status: KstatusStatus;
	readonly message: string;
	/** The reason of the synthetic Reconciling/Stalled condition kstatus would add, when it adds one. */
	readonly reason?: string;
}

/** Argo CD health codes. */
export type HealthStatus =
	'Healthy' | 'Suspended' | 'Progressing' | 'Missing' | 'Degraded' | 'Unknown';

/** The Argo CD health answer for an object. */
export interface HealthResult {
	readonly status: HealthStatus;
	readonly message: string;
}

/** Everything the engine says about one object. */
export interface StatusResult {
	readonly system: SystemId;
	/** The system's own word for the state, exactly as it would report it. */
	readonly state: string;
	readonly tone: Tone;
	/** One line for a badge or a table. */
	readonly message: string;
	/** Why the state is what it is, one sentence each, most important first. */
	readonly reasons: readonly string[];
	/** False when the object carries no status at all (a plain manifest). */
	readonly observed: boolean;
	readonly kstatus: KstatusResult;
	/** Argo CD health for the kinds Argo CD knows, otherwise null. */
	readonly health: HealthResult | null;
	/** What the system's controller would write, recomputed from the other objects in the input (Fleet, Harbor). */
	readonly computed?: unknown;
}

/** The parts of a result a system engine decides; kstatus and health are added by the registry. */
export type SystemVerdict = Omit<StatusResult, 'kstatus' | 'health'>;

/** A system rule's answer without extras; `verdictOf.bind(undefined, 'harbor')` gives a module its own. */
export function verdictOf(
	system: SystemId,
	state: string,
	tone: Tone,
	message: string,
	reasons: string[],
	observed: boolean,
): SystemVerdict {
	return { system, state, tone, message, reasons, observed };
}
