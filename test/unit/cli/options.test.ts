import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseOptions } from '../../../src/cli/options.ts';

const spec = { choices: { format: ['text', 'json', 'sarif'] }, flags: ['json'] };

describe('the command line of status and check', () => {
	it('takes paths, flags and both spellings of an option with a value', () => {
		assert.deepEqual(parseOptions(['a.yaml', '--format', 'sarif', 'dir', '--json'], spec), {
			kind: 'ok',
			paths: ['a.yaml', 'dir'],
			values: { format: 'sarif' },
			flags: new Set(['json']),
		});
		const equals = parseOptions(['--format=json', 'x'], spec);
		assert.equal(equals.kind === 'ok' && equals.values.format, 'json');
	});

	it('says what is wrong with a value, a missing value or an unknown option', () => {
		assert.deepEqual(parseOptions(['--format', 'xml'], spec), {
			kind: 'error',
			message: '--format takes text, json or sarif, not xml',
		});
		assert.deepEqual(parseOptions(['x', '--format'], spec), {
			kind: 'error',
			message: '--format takes text, json or sarif, not nothing',
		});
		assert.deepEqual(parseOptions(['--jsn'], spec), {
			kind: 'error',
			message: 'unknown option --jsn',
		});
		assert.deepEqual(parseOptions(['--json=yes'], spec), {
			kind: 'error',
			message: 'unknown option --json=yes',
		});
	});

	it('reads left to right: the first problem or the first -h/--help decides', () => {
		assert.deepEqual(parseOptions(['a', '--format', 'bad', '-h'], spec), {
			kind: 'error',
			message: '--format takes text, json or sarif, not bad',
		});
		assert.deepEqual(parseOptions(['a', '--help'], spec), { kind: 'help' });
	});
});
