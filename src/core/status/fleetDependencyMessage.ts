// The dependencies a Fleet agent names when a BundleDeployment's dependsOn holds it back, read from the message it
// writes on the Deployed condition. Two forms, by Fleet version (internal/cmd/agent/deployer/deployer.go
// NotReadyDependenciesError):
//   Fleet 0.16 and later (rancher/fleet#5549), reason WaitingForDependency:
//     waiting for dependent bundle(s) to reach an accepted state: dep (state: NotReady, accepted: Ready); other (…)
//   earlier, reason Error (so ErrApplied):
//     dependent bundle(s) are not ready: [dep other]
// and, in both, when no BundleDeployment matches a dependsOn entry (still ErrApplied):
//     list bundledeployments: no bundles matching labels <selector> in namespace <ns>

/** One dependency the agent waits for: the BundleDeployment's name, and with Fleet 0.16 its state and accepted ones. */
export interface PendingDependency {
	readonly name: string;
	readonly state?: string;
	readonly accepted?: readonly string[];
}

const waitingPrefix = 'waiting for dependent bundle(s) to reach an accepted state: ';
const notReadyPrefix = 'dependent bundle(s) are not ready: [';
const waitingEntry = /^(.*) \(state: ([^,()]*), accepted: ([^()]*)\)$/;

/** The dependencies a Deployed message names, or undefined when the message is not about dependencies. */
export function pendingDependenciesOf(message: string): readonly PendingDependency[] | undefined {
	const waiting = message.indexOf(waitingPrefix);
	if (waiting >= 0) {
		const list: PendingDependency[] = [];
		for (const entry of message.slice(waiting + waitingPrefix.length).split('; ')) {
			const match = waitingEntry.exec(entry.trim());
			if (match?.[1] && match[2] !== undefined && match[3] !== undefined) {
				list.push({
					name: match[1],
					state: match[2],
					accepted: match[3].split(', ').filter((state) => state !== ''),
				});
			} else if (entry.trim() !== '') {
				list.push({ name: entry.trim() });
			}
		}
		return list;
	}
	const notReady = message.indexOf(notReadyPrefix);
	if (notReady >= 0) {
		const end = message.indexOf(']', notReady);
		const inside = message.slice(notReady + notReadyPrefix.length, end < 0 ? undefined : end);
		return inside
			.split(' ')
			.filter((name) => name !== '')
			.map((name) => ({ name }));
	}
	return undefined;
}

/** "dep is NotReady (accepted: Ready)", or "dep is not ready" when the message gave no state (an older Fleet). */
export function pendingDependencySentence(dependency: PendingDependency): string {
	if (dependency.state === undefined) return `${dependency.name} is not ready`;
	const accepted = dependency.accepted?.length ? dependency.accepted.join(', ') : 'Ready';
	return `${dependency.name} is ${dependency.state === '' ? 'in no state yet' : dependency.state} (accepted: ${accepted})`;
}
