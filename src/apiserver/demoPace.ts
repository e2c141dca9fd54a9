// How fast the demo plays. The scenario is written at its fastest (a 45 s round); a user investigating one state needs
// minutes, so `npm start` and `npm run demo-cluster` play it slower unless told otherwise.
import type { DemoCluster } from './demoScenario.ts';

/** The paces a user can choose: `slow` (the default) stretches each phase to minutes, `paused` plays nothing. */
const demoPaces = ['slow', 'fast', 'paused'] as const;
export type DemoPace = (typeof demoPaces)[number];

/** The scenario's time multiplier at `pace` (undefined: nothing plays). */
export function paceSpeed(pace: DemoPace): number | undefined {
	switch (pace) {
		case 'slow':
			return 1 / 8;
		case 'fast':
			return 1;
		case 'paused':
			return undefined;
	}
}

export function isDemoPace(text: string): text is DemoPace {
	return (demoPaces as readonly string[]).includes(text);
}

function clock(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** What each cluster plays in a round, with the minute and second at `speed`: the lines `--timeline` prints. */
export function timelineText(
	clusters: readonly DemoCluster[],
	roundMs: number,
	speed: number,
): string[] {
	const lines = [
		`A round lasts ${clock(roundMs / speed)} and then starts again from the same objects.`,
	];
	for (const cluster of clusters) {
		const steps = [...cluster.timeline(new Map())].sort((a, b) => a.at - b.at);
		if (steps.length === 0) continue;
		lines.push(`${cluster.name}:`);
		for (const step of steps) {
			lines.push(
				`  ${clock(step.at / speed).padStart(5)}  ${step.description ?? step.action.kind}`,
			);
		}
	}
	return lines;
}
