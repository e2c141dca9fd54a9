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
	if (!keyPattern.test(key)) {
		throw badRequest(`unable to parse requirement: invalid label key "${key}" in "${text}"`);
	}
	return key;
}

function parseRequirement(text: string): LabelRequirement {
	const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(text);
	if (set !== null) {
		const key = checkedKey(set[1] ?? '', text);
		const values = (set[3] ?? '')
			.split(',')
			.map((value) => value.trim())
			.filter((value) => value !== '');
		return set[2] === 'in' ? { kind: 'in', key, values } : { kind: 'notIn', key, values };
	}
	const operator = /^([^=!<>\s]+)\s*(==|=|!=|>|<)\s*(.*)$/.exec(text);
	if (operator !== null) {
		const key = checkedKey(operator[1] ?? '', text);
		const value = (operator[3] ?? '').trim();
		switch (operator[2]) {
			case '!=':
				return { kind: 'notEquals', key, value };
			case '>':
			case '<': {
				const number = Number(value);
				if (!Number.isInteger(number)) {
					throw badRequest(`unable to parse requirement: "${value}" is not an integer`);
				}
				return operator[2] === '>'
					? { kind: 'greaterThan', key, value: number }
					: { kind: 'lessThan', key, value: number };
			}
			default:
				return { kind: 'equals', key, value };
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
		const raw = labels?.[requirement.key];
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

/** Parses a field selector for a resource type. Throws a 400 ApiError for a field the type does not index. */
export function parseFieldSelector(text: string, type: ResourceType): readonly FieldRequirement[] {
	const allowed = new Set([
		'metadata.name',
		'metadata.namespace',
		...(extraFieldLabels[`${type.group}/${type.kind}`] ?? []),
	]);
	return splitTopLevel(text).map((part) => {
		const match = /^([^=!]+)(==|=|!=)(.*)$/.exec(part);
		if (match === null) {
			throw badRequest(`invalid selector: '${part}'; can't understand '${part}'`);
		}
		const field = (match[1] ?? '').trim();
		if (!allowed.has(field)) {
			throw badRequest(
				`field label not supported: ${field}` +
					(type.group === '' ? '' : ` for ${type.kind}.${type.group}`),
			);
		}
		return { field, value: (match[3] ?? '').trim(), negated: match[2] === '!=' };
	});
}

function fieldValue(object: Readonly<Record<string, unknown>>, path: string): string {
	let current: unknown = object;
	for (const segment of path.split('.')) {
		if (typeof current !== 'object' || current === null) return '';
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
