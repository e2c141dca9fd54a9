// A metav1.LabelSelector evaluated as k8s.io/apimachinery v0.36.3 does (the version rancher/fleet v0.16.1 builds with):
// LabelSelectorAsSelector (pkg/apis/meta/v1/helpers.go) makes one labels.NewRequirement (pkg/labels/selector.go) per
// matchLabels entry and per matchExpressions entry, and the first one refused is the error. A requirement checks its
// key with content.IsLabelKey and its values with content.IsLabelValue (pkg/api/validate/content/kube.go, dns.go,
// errors.go) and reports all it finds as field.Invalid errors aggregated by ErrorList.ToAggregate
// (pkg/util/validation/field/errors.go, path.go; pkg/util/errors/errors.go). The error texts here are theirs.
import { getPath, isRecord } from './object.ts';

type Labels = Readonly<Record<string, string>>;

/** A parsed label selector: a predicate, or why the selector is invalid. */
export type LabelSelectorMatcher =
	| { readonly ok: true; readonly matches: (labels: Labels) => boolean }
	| { readonly ok: false; readonly error: string };

type Operator = 'Equals' | 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

interface Requirement {
	readonly key: string;
	readonly operator: Operator;
	readonly values: readonly string[];
}

interface DecodedExpression {
	readonly key: string;
	readonly operator: string;
	readonly values: readonly string[];
}

interface DecodedSelector {
	readonly matchLabels: readonly (readonly [string, string])[];
	readonly matchExpressions: readonly DecodedExpression[];
}

/**
 * A matcher for a metav1.LabelSelector: nil selects nothing, an empty one everything (LabelSelectorAsSelector);
 * matchLabels ANDed with matchExpressions In, NotIn (also true when the key is absent), Exists, DoesNotExist.
 * A selector Go could not even decode (a wrong JSON type) is refused before any requirement is checked.
 */
export function labelSelectorMatcherOf(selector: unknown): LabelSelectorMatcher {
	if (selector === undefined || selector === null) return { ok: true, matches: () => false };
	const decoded = decodeSelector(selector);
	if (typeof decoded === 'string') return { ok: false, error: decoded };
	const requirements: Requirement[] = [];
	// Go ranges over the matchLabels map in random order, so which bad entry is reported first is not fixed
	// upstream; sorting the keys makes it fixed here.
	const labelEntries = [...decoded.matchLabels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	for (const [key, value] of labelEntries) {
		const requirement = { key, operator: 'Equals', values: [value] } as const;
		const error = requirementError(requirement);
		if (error !== undefined) return { ok: false, error };
		requirements.push(requirement);
	}
	for (const expression of decoded.matchExpressions) {
		const operator = selectorOperatorOf(expression.operator);
		if (operator === undefined) {
			return {
				ok: false,
				error: `${goQuote(expression.operator)} is not a valid label selector operator`,
			};
		}
		const requirement = { key: expression.key, operator, values: expression.values };
		const error = requirementError(requirement);
		if (error !== undefined) return { ok: false, error };
		requirements.push(requirement);
	}
	return {
		ok: true,
		matches: (labels) => requirements.every((r) => requirementMatches(r, labels)),
	};
}

function selectorOperatorOf(operator: string): Operator | undefined {
	switch (operator) {
		case 'In':
		case 'NotIn':
		case 'Exists':
		case 'DoesNotExist':
			return operator;
		default:
			return undefined;
	}
}

function requirementMatches(requirement: Requirement, labels: Labels): boolean {
	const present = Object.hasOwn(labels, requirement.key);
	switch (requirement.operator) {
		case 'Equals':
		case 'In':
			return present && requirement.values.includes(labels[requirement.key] ?? '');
		case 'NotIn':
			return !present || !requirement.values.includes(labels[requirement.key] ?? '');
		case 'Exists':
			return present;
		case 'DoesNotExist':
			return !present;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Decoding: the checks encoding/json makes before apimachinery sees the selector (texts are ours)

function decodeSelector(selector: unknown): DecodedSelector | string {
	if (!isRecord(selector)) return 'selector is not an object';
	const matchLabels = selector.matchLabels ?? {};
	if (!isRecord(matchLabels)) return 'selector.matchLabels is not an object';
	const labelEntries: [string, string][] = [];
	for (const [key, value] of Object.entries(matchLabels)) {
		if (typeof value !== 'string') return `selector.matchLabels.${key} is not a string`;
		labelEntries.push([key, value]);
	}
	const expressions = selector.matchExpressions ?? [];
	if (!Array.isArray(expressions)) return 'selector.matchExpressions is not a list';
	const decoded: DecodedExpression[] = [];
	for (const [index, expression] of (expressions as unknown[]).entries()) {
		// JSON null decodes to the zero value: an expression with an empty key and operator.
		if (expression !== null && !isRecord(expression)) {
			return `selector.matchExpressions[${index}] is not an object`;
		}
		const key = getPath(expression, 'key') ?? '';
		const operator = getPath(expression, 'operator') ?? '';
		if (typeof key !== 'string') return `selector.matchExpressions[${index}].key is not a string`;
		if (typeof operator !== 'string') {
			return `selector.matchExpressions[${index}].operator is not a string`;
		}
		const values: unknown = getPath(expression, 'values') ?? [];
		if (!Array.isArray(values) || !values.every((v): v is string => typeof v === 'string')) {
			return `values of selector key "${key}" are not a list of strings`;
		}
		decoded.push({ key, operator, values });
	}
	return { matchLabels: labelEntries, matchExpressions: decoded };
}

// ---------------------------------------------------------------------------------------------------------------
// labels.NewRequirement, with the root path LabelSelectorAsSelector passes (none): fields "key" and "values"

function requirementError({ key, operator, values }: Requirement): string | undefined {
	const errors: string[] = [];
	const keyProblems = labelKeyProblems(key);
	if (keyProblems.length > 0) errors.push(invalid('key', goQuote(key), keyProblems.join('; ')));
	// LabelSelectorAsSelector copies the values with append([]string(nil), ...): none is a nil slice, JSON null.
	const shownValues = values.length === 0 ? 'null' : goJsonStrings(values);
	if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
		errors.push(
			invalid('values', shownValues, "for 'in', 'notin' operators, values set can't be empty"),
		);
	} else if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
		errors.push(
			invalid('values', shownValues, 'values set must be empty for exists and does not exist'),
		);
	}
	for (const [index, value] of values.entries()) {
		const problems = labelValueProblems(value);
		if (problems.length > 0) {
			errors.push(invalid(`values[${index}][${key}]`, goQuote(value), problems.join('; ')));
		}
	}
	return aggregate(errors);
}

/** field.Invalid(path, value, detail).Error(), the value already printed as ErrorBody prints it. */
function invalid(path: string, shownValue: string, detail: string): string {
	return `${path}: Invalid value: ${shownValue}: ${detail}`;
}

/** ErrorList.ToAggregate().Error(): duplicates dropped, one error as itself, several as "[a, b]". */
function aggregate(errors: readonly string[]): string | undefined {
	const unique = [...new Set(errors)];
	if (unique.length === 0) return undefined;
	return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

// ---------------------------------------------------------------------------------------------------------------
// content.IsLabelKey, content.IsLabelValue, content.IsDNS1123Subdomain

const labelKeyPattern = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyRegExp = new RegExp(`^${labelKeyPattern}$`);
const labelKeyRule =
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValuePattern = `(${labelKeyPattern})?`;
const labelValueRegExp = new RegExp(`^${labelValuePattern}$`);
const labelValueRule =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dnsLabelPattern = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dnsSubdomainPattern = `${dnsLabelPattern}(\\.${dnsLabelPattern})*`;
const dnsSubdomainRegExp = new RegExp(`^${dnsSubdomainPattern}$`);
const dnsSubdomainRule =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

function labelKeyProblems(key: string): string[] {
	const parts = key.split('/');
	if (parts.length > 2) {
		return [
			`a valid label key ${regexProblem(labelKeyRule, labelKeyPattern, 'MyName', 'my.name', '123-abc')}` +
				" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
		];
	}
	const [prefix, name] = parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : [undefined, key];
	const problems =
		prefix === undefined
			? []
			: prefix === ''
				? ['prefix part must be non-empty']
				: dnsSubdomainProblems(prefix).map((problem) => `prefix part ${problem}`);
	if (name === '') problems.push('name part must be non-empty');
	else if (utf8Length(name) > 63) problems.push('name part must be no more than 63 bytes');
	if (!labelKeyRegExp.test(name)) {
		problems.push(
			`name part ${regexProblem(labelKeyRule, labelKeyPattern, 'MyName', 'my.name', '123-abc')}`,
		);
	}
	return problems;
}

function labelValueProblems(value: string): string[] {
	const problems: string[] = [];
	if (utf8Length(value) > 63) problems.push('must be no more than 63 bytes');
	if (!labelValueRegExp.test(value)) {
		problems.push(regexProblem(labelValueRule, labelValuePattern, 'MyValue', 'my_value', '12345'));
	}
	return problems;
}

function dnsSubdomainProblems(value: string): string[] {
	const problems: string[] = [];
	if (utf8Length(value) > 253) problems.push('must be no more than 253 bytes');
	if (!dnsSubdomainRegExp.test(value)) {
		problems.push(regexProblem(dnsSubdomainRule, dnsSubdomainPattern, 'example.com'));
	}
	return problems;
}

/** content.RegexError's wording, whose examples are each followed by ", " and joined by " or ". */
function regexProblem(rule: string, pattern: string, ...examples: readonly string[]): string {
	const shown = examples.map((example) => `'${example}', `).join(' or ');
	return `${rule} (e.g. ${shown}regex used for validation is '${pattern}')`;
}

// ---------------------------------------------------------------------------------------------------------------
// How Go prints: len() counts UTF-8 bytes; %q is strconv.Quote; a []string bad value goes through json.Marshal.
// A lone surrogate stands for U+FFFD, which is what Go's JSON decoder makes of one.

function utf8Length(text: string): number {
	let length = 0;
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		length += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
	}
	return length;
}

const goPrintable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const goShortEscapes: Readonly<Record<string, string>> = {
	'\x07': '\\a',
	'\b': '\\b',
	'\f': '\\f',
	'\n': '\\n',
	'\r': '\\r',
	'\t': '\\t',
	'\v': '\\v',
};

function hex(code: number, digits: number): string {
	return code.toString(16).padStart(digits, '0');
}

function isLoneSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdfff;
}

function goQuote(text: string): string {
	let quoted = '"';
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (char === '"' || char === '\\') quoted += `\\${char}`;
		else if (isLoneSurrogate(code)) quoted += '\ufffd';
		else if (goPrintable.test(char)) quoted += char;
		else if (goShortEscapes[char] !== undefined) quoted += goShortEscapes[char];
		else if (code < 0x20 || code === 0x7f) quoted += `\\x${hex(code, 2)}`;
		else if (code < 0x10000) quoted += `\\u${hex(code, 4)}`;
		else quoted += `\\U${hex(code, 8)}`;
	}
	return `${quoted}"`;
}

function goJsonString(text: string): string {
	let encoded = '"';
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (char === '"' || char === '\\') encoded += `\\${char}`;
		else if (char === '\b') encoded += '\\b';
		else if (char === '\f') encoded += '\\f';
		else if (char === '\n') encoded += '\\n';
		else if (char === '\r') encoded += '\\r';
		else if (char === '\t') encoded += '\\t';
		// json.Marshal escapes HTML characters and the two JavaScript line terminators too.
		else if (code < 0x20 || '<>&\u2028\u2029'.includes(char)) encoded += `\\u${hex(code, 4)}`;
		else if (isLoneSurrogate(code)) encoded += '\ufffd';
		else encoded += char;
	}
	return `${encoded}"`;
}

function goJsonStrings(values: readonly string[]): string {
	return `[${values.map(goJsonString).join(',')}]`;
}
