// Helm credentials a GitRepo's job does not send. Since rancher/fleet#5141 (Fleet 0.15 and 0.16 lines, 2026-05) the
// bundle reader forwards spec.helmSecretName's credentials only to a chart URL that matches spec.helmRepoURLRegex,
// anchored at the start (`^(?:<regex>)`, against the chart's repo, else the chart); an empty regex forwards them to
// none. #5367 adds a hint to the error when the regex is empty; a non-empty regex that does not match drops them
// without a word, and the chart fetch fails with the registry's 401. Sources: rancher/fleet @ 3b2c622ce176
// internal/bundlereader/resources.go (shouldAddAuthToRequest), loaddirectory.go (helmRepoURLRegexUIHint).
import { getString } from '../model/object.ts';

const emptyRegexHint =
	'helmRepoURLRegex is empty, so Helm credentials were not forwarded; set spec.helmRepoURLRegex to allow credential forwarding';
const authFailure = /\b(401|403)\b|unauthori[sz]ed|authentication required|forbidden/i;
const chartUrl = /\b((?:https?|oci):\/\/[^\s"',;)\]]+)/;

/**
 * What to change when a GitRepo's chart fetch failed for want of credentials Fleet did not send, from the messages
 * its conditions carry; undefined when the messages say nothing of the kind.
 */
export function helmCredentialsAdvice(
	gitRepo: unknown,
	messages: readonly string[],
): string | undefined {
	if (messages.some((message) => message.includes(emptyRegexHint))) {
		return 'Fleet did not send the Helm credentials of spec.helmSecretName: spec.helmRepoURLRegex is empty, and since Fleet forwards them only to chart URLs that match it (rancher/fleet#5141), it sent them nowhere. Set spec.helmRepoURLRegex on this GitRepo to a regular expression matching the chart repository URL.';
	}
	const secret =
		getString(gitRepo, 'spec', 'helmSecretName') ??
		getString(gitRepo, 'spec', 'helmSecretNameForPaths');
	if (!secret) return undefined;
	const failed = messages.find((message) => authFailure.test(message) && chartUrl.test(message));
	if (!failed) return undefined;
	const url = chartUrl.exec(failed)?.[1] ?? '';
	const regex = getString(gitRepo, 'spec', 'helmRepoURLRegex') ?? '';
	if (regex === '') {
		return `The chart fetch from ${url} was refused, and spec.helmRepoURLRegex is empty: Fleet forwards the Helm credentials of ${secret} only to chart URLs that match it (rancher/fleet#5141), so it sent none. Set spec.helmRepoURLRegex to a regular expression matching ${url}.`;
	}
	let matches: boolean | undefined;
	try {
		matches = new RegExp(`^(?:${regex})`).test(url);
	} catch {
		// A Go regular expression JavaScript cannot read: nothing to say about it.
		return undefined;
	}
	return matches
		? undefined
		: `The chart fetch from ${url} was refused, and ${url} does not match spec.helmRepoURLRegex (${regex}), so Fleet dropped the Helm credentials of ${secret} without a word (rancher/fleet#5141). Widen spec.helmRepoURLRegex to match it.`;
}
