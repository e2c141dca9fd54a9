// Glob patterns as VS Code's settings write them (files.exclude, search.exclude, the extension's include/exclude),
// matched against a path relative to the folder, with `/` between segments:
//   `*` any characters but `/`; `?` one character but `/`; `[abc]`, `[a-z]`, `[!a]`/`[^a]` one character but `/`;
//   `**` as a whole segment any number of segments, none included (`**/x` matches `x`, `a/**` matches `a`);
//   `{a,b}` either alternative, each a glob of its own (`{**/*.yaml,docs/*}`).
// A pattern is anchored at the folder (`build` is the top folder `build` only; `**/build` is one at any depth), as
// VS Code's search anchors it. A trailing `/` is dropped. Case is significant except on Windows and macOS, whose file
// systems ignore it.

/** Whether a folder-relative path (segments joined by `/`) matches. */
export type PathMatcher = (relativePath: string) => boolean;

const anySegments = '(?:[^/]+/)*';

/** The regular expression source for one glob (no anchors). */
function globSource(pattern: string): string {
	const segments = splitOutside(pattern, '/');
	let source = '';
	for (let index = 0; index < segments.length; index++) {
		const segment = segments[index] ?? '';
		const last = index === segments.length - 1;
		if (segment === '**') {
			// Runs of `**` segments mean the same as one.
			if (segments[index + 1] === '**') continue;
			if (last) {
				// `a/**` matches `a` itself and everything under it; `**` alone matches everything.
				source = source === '' ? '.*' : `${source.slice(0, -1)}(?:/.*)?`;
			} else {
				source += anySegments;
			}
			continue;
		}
		source += segmentSource(segment);
		if (!last) source += '/';
	}
	return source;
}

/** One segment: no `/` outside braces (a brace alternative may hold its own `/` and `**`). */
function segmentSource(segment: string): string {
	let source = '';
	for (let index = 0; index < segment.length; index++) {
		const char = segment[index] ?? '';
		if (char === '*') {
			while (segment[index + 1] === '*') index++;
			source += '[^/]*';
		} else if (char === '?') {
			source += '[^/]';
		} else if (char === '[') {
			const end = classEnd(segment, index);
			if (end < 0) {
				source += '\\[';
			} else {
				source += classSource(segment.slice(index + 1, end));
				index = end;
			}
		} else if (char === '{') {
			const end = braceEnd(segment, index);
			if (end < 0) {
				source += '\\{';
			} else {
				const alternatives = splitOutside(segment.slice(index + 1, end), ',');
				source += `(?:${alternatives.map((alternative) => globSource(alternative)).join('|')})`;
				index = end;
			}
		} else {
			source += escapeChar(char);
		}
	}
	return source;
}

function escapeChar(char: string): string {
	return /[\\^$.*+?()[\]{}|/-]/.test(char) ? `\\${char}` : char;
}

/** The index of the `]` closing the class opened at `start`, or -1 (then `[` is a plain character). */
function classEnd(text: string, start: number): number {
	let index = start + 1;
	if (text[index] === '!' || text[index] === '^') index++;
	// A `]` right after the opening (or its negation) is a member, as in shells.
	if (text[index] === ']') index++;
	for (; index < text.length; index++) {
		if (text[index] === ']') return index;
	}
	return -1;
}

function classSource(body: string): string {
	let negated = false;
	let rest = body;
	if (rest.startsWith('!') || rest.startsWith('^')) {
		negated = true;
		rest = rest.slice(1);
	}
	let members = '';
	for (let index = 0; index < rest.length; index++) {
		const char = rest[index] ?? '';
		const isRange = rest[index + 1] === '-' && index + 2 < rest.length;
		if (isRange) {
			members += `${escapeClassChar(char)}-${escapeClassChar(rest[index + 2] ?? '')}`;
			index += 2;
		} else {
			members += escapeClassChar(char);
		}
	}
	// A class never matches the separator, negated or not.
	return negated ? `[^/${members}]` : `(?!/)[${members}]`;
}

function escapeClassChar(char: string): string {
	return /[\\\]^-]/.test(char) ? `\\${char}` : char;
}

function braceEnd(text: string, start: number): number {
	let depth = 0;
	for (let index = start; index < text.length; index++) {
		const char = text[index];
		if (char === '[') {
			const end = classEnd(text, index);
			if (end > 0) index = end;
		} else if (char === '{') {
			depth++;
		} else if (char === '}') {
			depth--;
			if (depth === 0) return index;
		}
	}
	return -1;
}

/** Splits at `separator` outside braces and classes. */
function splitOutside(text: string, separator: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let from = 0;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (char === '[') {
			const end = classEnd(text, index);
			if (end > 0) index = end;
		} else if (char === '{') {
			if (braceEnd(text, index) > 0) depth++;
		} else if (char === '}' && depth > 0) {
			depth--;
		} else if (char === separator && depth === 0) {
			parts.push(text.slice(from, index));
			from = index + 1;
		}
	}
	parts.push(text.slice(from));
	return parts;
}

function normalise(pattern: string): string {
	let result = pattern.trim().replace(/\\/g, '/');
	while (result.length > 1 && result.endsWith('/')) result = result.slice(0, -1);
	// `/x` and `./x` mean the folder's own `x`, as a plain `x` does.
	if (result.startsWith('./')) result = result.slice(2);
	else if (result.startsWith('/')) result = result.slice(1);
	return result;
}

const ignoresCase = process.platform === 'win32' || process.platform === 'darwin';

/** A matcher for any of `patterns` (none: matches nothing). */
export function globMatcher(patterns: readonly string[]): PathMatcher {
	const sources = patterns
		.map(normalise)
		.filter((pattern) => pattern !== '')
		.map(globSource);
	if (sources.length === 0) return () => false;
	const regex = new RegExp(`^(?:${sources.join('|')})$`, ignoresCase ? 'i' : '');
	return (relativePath) => regex.test(relativePath);
}

/** A settings entry: its glob, and for an entry like `{ "when": "$(basename).ts" }` the sibling it needs. */
export interface ExcludeEntry {
	readonly glob: string;
	readonly when?: string;
}

/** Whether a path is excluded; `hasSibling` says whether its folder holds an entry of that name. */
export type ExcludeMatcher = (
	relativePath: string,
	hasSibling: (name: string) => boolean,
) => boolean;

/**
 * A matcher for settings entries as VS Code applies them: a plain entry always, an entry with a `when` clause only
 * where the folder also holds the named sibling, `$(basename)` standing for the name without its extension
 * (`*.js` when `$(basename).ts`: `a.js` is excluded beside `a.ts`).
 */
export function excludeMatcher(entries: readonly ExcludeEntry[]): ExcludeMatcher {
	const always = globMatcher(
		entries.filter((entry) => entry.when === undefined).map((entry) => entry.glob),
	);
	const conditional = entries.flatMap((entry) =>
		entry.when === undefined ? [] : [{ matches: globMatcher([entry.glob]), when: entry.when }],
	);
	return (relativePath, hasSibling) => {
		if (always(relativePath)) return true;
		if (conditional.length === 0) return false;
		const base = relativePath.slice(relativePath.lastIndexOf('/') + 1);
		const dot = base.lastIndexOf('.');
		const name = dot > 0 ? base.slice(0, dot) : base;
		return conditional.some(
			({ matches, when }) =>
				matches(relativePath) && hasSibling(when.replace('$(basename)', () => name)),
		);
	};
}
