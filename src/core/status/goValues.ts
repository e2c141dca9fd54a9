// How Go names and prints decoded JSON values in the errors kstatus and Argo CD report: apimachinery's accessor
// errors (%v and %T of the value) and runtime.DefaultUnstructuredConverter's (reflect kinds, conversion words).
import { isRecord } from '../model/object.ts';

/** Go's name for the dynamic type of a decoded JSON value (%T). */
export function goTypeOf(value: unknown): string {
	if (value === null || value === undefined) return '<nil>';
	if (Array.isArray(value)) return '[]interface {}';
	switch (typeof value) {
		case 'string':
			return 'string';
		case 'boolean':
			return 'bool';
		case 'number':
			return Number.isInteger(value) ? 'int64' : 'float64';
		default:
			return 'map[string]interface {}';
	}
}

/** reflect.Kind of a decoded JSON value, as the unstructured converter names it. */
export function goKindOf(value: unknown): string {
	if (Array.isArray(value)) return 'slice';
	if (isRecord(value)) return 'map';
	return goTypeOf(value);
}

/** A decoded JSON value as Go's %v prints it. */
export function goValueText(value: unknown): string {
	if (value === null || value === undefined) return '<nil>';
	if (Array.isArray(value)) return `[${value.map(goValueText).join(' ')}]`;
	if (typeof value === 'number') {
		if (Number.isInteger(value) || value === 0) return String(value);
		const exponent = Math.floor(Math.log10(Math.abs(value)));
		const text = exponent < -4 || exponent >= 21 ? value.toExponential() : String(value);
		// Go writes at least two exponent digits: 1e-07, not 1e-7.
		return text.replace(/e([+-])(\d)$/, 'e$10$2');
	}
	if (typeof value === 'object') {
		const record = value as Record<string, unknown>;
		const entries = Object.keys(record)
			.sort()
			.map((key) => `${key}:${goValueText(record[key])}`);
		return `map[${entries.join(' ')}]`;
	}
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The converter's words for a value that does not decode into a string-kinded field of Go type `goType`: an
 * integer converts by Go's rules but not by JSON's, and says so; anything else is not convertible at all.
 */
export function stringConversionWords(value: unknown, goType: string): string {
	return typeof value === 'number' && Number.isInteger(value)
		? `cannot convert int64 to ${goType}`
		: 'unrecognized type: string';
}
