// Label and field selectors as list and watch requests send them (`?labelSelector=env in (prod),!paused`). The
// grammar is the one `kubectl get -l` documents: equality (`=`, `==`, `!=`), set-based (`in`, `notin`), existence
// (`key`, `!key`) and the numeric `>`/`<` that apimachinery's parser also accepts.

import { badRequest } from './errors.ts';
import type { ResourceType } from './resources.ts';

/** One parsed requirement of a label selector. */
export type LabelRequirement =
	| { readonly kind: 'equals'; readonly key: string; readonly value: string }
	| { readonly kind: 'notEquals'; readonly key: string; readonly value: string }
	| { readonly kind: 'in'; readonly key: string; readonly values: readonly string[] }
	| { readonly kind: 'notIn'; readonly key: string; readonly values: readonly string[] }
	| { readonly kind: 'exists'; readonly key: string }
	| { readonly kind: 'notExists'; readonly key: string }
	| { readonly kind: 'greaterThan'; readonly key: string; readonly value: number }
	| { readonly kind: 'lessThan'; readonly key: string; readonly value: number };

/** One parsed requirement of a field selector. */
export interface FieldRequirement {
	readonly field: string;
	readonly value: string;
	readonly negated: boolean;
}

/** Splits at commas that are not inside parentheses. */
function splitTopLevel(text: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '(') depth++;
		else if (c === ')') depth--;
		else if (c === ',' && depth === 0) {
			parts.push(text.slice(start, i));
			start = i + 1;
		}
	}
	parts.push(text.slice(start));
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

const keyPattern = /^([a-z0-9A-Z][-a-z0-9A-Z_.]*\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;

function checkedKey(key: string, text: string): string {
	const slash = key.lastIndexOf('/');
	if (!keyPattern.test(key) || key.length - slash - 1 > 63 || slash > 253) {
		throw badRequest(`unable to parse requirement: invalid label key "${key}" in "${text}"`);
	}
	return key;
}

const labelValuePattern = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** A label value as apimachinery's validation allows it (empty, or at most 63 characters of a DNS-like form). */
function checkedValue(value: string, index: number, key: string): string {
	if (value.length > 63) {
		throw badRequest(
			`unable to parse requirement: values[${index}][${key}]: Invalid value: "${value}": must be no more than 63 characters`,
		);
	}
	if (!labelValuePattern.test(value)) {
		throw badRequest(
			`unable to parse requirement: values[${index}][${key}]: Invalid value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
		);
	}
	return value;
}

function parseRequirement(text: string): LabelRequirement {
	const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(text);
	if (set !== null) {
		const key = checkedKey(set[1] ?? '', text);
		const values = (set[3] ?? '')
			.split(',')
			.map((value) => value.trim())
			.filter((value) => value !== '')
			.map((value, index) => checkedValue(value, index, key));
		if (values.length === 0) {
			throw badRequest(
				`unable to parse requirement: values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`,
			);
		}
		return set[2] === 'in' ? { kind: 'in', key, values } : { kind: 'notIn', key, values };
	}
	const operator = /^([^=!<>\s]+)\s*(==|=|!=|>|<)\s*(.*)$/.exec(text);
	if (operator !== null) {
		const key = checkedKey(operator[1] ?? '', text);
		const value = (operator[3] ?? '').trim();
		switch (operator[2]) {
			case '!=':
				return { kind: 'notEquals', key, value: checkedValue(value, 0, key) };
			case '>':
			case '<': {
				const number = Number(value);
				if (!/^[+-]?[0-9]+$/.test(value) || !Number.isSafeInteger(number)) {
					throw badRequest(`unable to parse requirement: "${value}" is not an integer`);
				}
				return operator[2] === '>'
					? { kind: 'greaterThan', key, value: number }
					: { kind: 'lessThan', key, value: number };
			}
			default:
				return { kind: 'equals', key, value: checkedValue(value, 0, key) };
		}
	}
	if (text.startsWith('!')) {
		return { kind: 'notExists', key: checkedKey(text.slice(1).trim(), text) };
	}
	return { kind: 'exists', key: checkedKey(text, text) };
}

/** Parses a label selector; an empty text selects everything. Throws a 400 ApiError on bad syntax. */
export function parseLabelSelector(text: string): readonly LabelRequirement[] {
	return splitTopLevel(text).map(parseRequirement);
}

/** Whether labels satisfy every requirement. */
export function labelsMatch(
	requirements: readonly LabelRequirement[],
	labels: Readonly<Record<string, unknown>> | undefined,
): boolean {
	for (const requirement of requirements) {
		const raw =
			labels !== undefined && Object.hasOwn(labels, requirement.key)
				? labels[requirement.key]
				: undefined;
		const value = typeof raw === 'string' ? raw : undefined;
		switch (requirement.kind) {
			case 'equals':
				if (value !== requirement.value) return false;
				break;
			case 'notEquals':
				if (value === requirement.value) return false;
				break;
			case 'in':
				if (value === undefined || !requirement.values.includes(value)) return false;
				break;
			case 'notIn':
				if (value !== undefined && requirement.values.includes(value)) return false;
				break;
			case 'exists':
				if (value === undefined) return false;
				break;
			case 'notExists':
				if (value !== undefined) return false;
				break;
			case 'greaterThan':
			case 'lessThan': {
				const number = Number(value);
				if (value === undefined || !Number.isInteger(number)) return false;
				if (
					requirement.kind === 'greaterThan'
						? number <= requirement.value
						: number >= requirement.value
				) {
					return false;
				}
				break;
			}
		}
	}
	return true;
}

// Field selectors: every kind supports metadata.name and metadata.namespace; a few built-in kinds register more
// (kube-apiserver's `AddFieldLabelConversionFunc` calls in pkg/apis/core/v1/conversion.go).
const extraFieldLabels: Readonly<Record<string, readonly string[]>> = {
	'/Pod': [
		'spec.nodeName',
		'spec.restartPolicy',
		'spec.schedulerName',
		'spec.serviceAccountName',
		'status.phase',
		'status.podIP',
		'status.nominatedNodeName',
	],
	'/Event': [
		'involvedObject.kind',
		'involvedObject.namespace',
		'involvedObject.name',
		'involvedObject.uid',
		'involvedObject.apiVersion',
		'involvedObject.resourceVersion',
		'involvedObject.fieldPath',
		'reason',
		'reportingComponent',
		'source',
		'type',
	],
	'/Secret': ['type'],
	'/Namespace': ['status.phase'],
	'apps/ReplicaSet': ['status.replicas'],
	'batch/Job': ['status.successful'],
};

/** The terms of a field selector: split at commas that no backslash escapes, as apimachinery's fields package does. */
function fieldTerms(text: string): string[] {
	const terms: string[] = [];
	let start = 0;
	let escaped = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (escaped) escaped = false;
		else if (c === '\\') escaped = true;
		else if (c === ',') {
			terms.push(text.slice(start, i));
			start = i + 1;
		}
	}
	terms.push(text.slice(start));
	return terms.filter((term) => term !== '');
}

/** A field selector value without its escapes (`\\`, `\,`, `\=`); an unescaped `,` or `=` is an error. */
function unescapedFieldValue(value: string): string {
	let result = '';
	let escaped = false;
	for (const c of value) {
		if (escaped) {
			if (c !== '\\' && c !== ',' && c !== '=') {
				throw badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
			}
			result += c;
			escaped = false;
		} else if (c === '\\') {
			escaped = true;
		} else if (c === ',' || c === '=') {
			// Go prints the rune with %v, as its number.
			throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
		} else {
			result += c;
		}
	}
	if (escaped) throw badRequest('invalid field selector: invalid escape sequence: \\');
	return result;
}

/**
 * Parses a field selector for a resource type, as kube-apiserver does: each term splits at its first `!=`, `==`
 * or `=`, nothing is trimmed, and the value must escape `,`, `=` and `\`. Throws a 400 ApiError for bad syntax and
 * for a field the type does not index.
 */
export function parseFieldSelector(text: string, type: ResourceType): readonly FieldRequirement[] {
	const allowed = new Set([
		'metadata.name',
		'metadata.namespace',
		...(extraFieldLabels[`${type.group}/${type.kind}`] ?? []),
	]);
	const requirements = fieldTerms(text).map((term) => {
		const match = /^(.*?)(!=|==|=)(.*)$/s.exec(term);
		if (match === null) {
			throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
		}
		return {
			field: match[1] ?? '',
			value: unescapedFieldValue(match[3] ?? ''),
			negated: match[2] === '!=',
		};
	});
	for (const { field } of requirements) {
		if (!allowed.has(field)) {
			throw badRequest(
				`field label not supported: ${field}` +
					(type.group === '' ? '' : ` for ${type.kind}.${type.group}`),
			);
		}
	}
	return requirements;
}

function fieldValue(object: Readonly<Record<string, unknown>>, path: string): string {
	let current: unknown = object;
	for (const segment of path.split('.')) {
		if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
			return '';
		}
		current = (current as Record<string, unknown>)[segment];
	}
	if (typeof current === 'string') return current;
	if (typeof current === 'number' || typeof current === 'boolean') return String(current);
	return '';
}

/** Whether an object satisfies every field requirement (a missing field reads as ''). */
export function fieldsMatch(
	requirements: readonly FieldRequirement[],
	object: Readonly<Record<string, unknown>>,
): boolean {
	return requirements.every((requirement) => {
		const equal = fieldValue(object, requirement.field) === requirement.value;
		return requirement.negated ? !equal : equal;
	});
}
