import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameAndText, optionsOrExit, parseOptions } from '../../../src/cli/options.ts';

const spec = { choices: { format: ['text', 'json', 'sarif'] }, flags: ['json'] };

describe('the command line of status, check and merge', () => {
	it('takes paths, flags and both spellings of an option with a value', () => {
		assert.deepEqual(parseOptions(['a.yaml', '--format', 'sarif', 'dir', '--json'], spec), {
			kind: 'ok',
			paths: ['a.yaml', 'dir'],
			values: { format: 'sarif' },
			flags: new Set(['json']),
			lists: { format: ['sarif'] },
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

	const mergeSpec = {
		choices: { rules: ['proposal', 'kubestellar'] },
		flags: ['json'],
		texts: { workload: 'FILE', wec: 'NAME=FILE', policy: 'FILE' },
		pathsOptional: true,
	};

	it('keeps every value of an option given many times, in order, and files as values', () => {
		const parsed = parseOptions(
			['--workload', 'w.yaml', '--wec', 'a=a.yaml', '--wec=b=dir/b.yaml', '--policy', 'p.yaml'],
			mergeSpec,
		);
		assert.equal(parsed.kind, 'ok');
		if (parsed.kind !== 'ok') return;
		assert.deepEqual(parsed.paths, []);
		assert.deepEqual(parsed.lists.wec, ['a=a.yaml', 'b=dir/b.yaml']);
		assert.equal(parsed.values.workload, 'w.yaml');
		assert.deepEqual(parsed.lists.wec.map(nameAndText), [
			{ name: 'a', text: 'a.yaml' },
			{ name: 'b', text: 'dir/b.yaml' },
		]);
	});

	it('says what a NAME=FILE or FILE option lacks', () => {
		for (const [argv, message] of [
			[['--wec', 'east'], '--wec takes NAME=FILE, not east'],
			[['--wec', '=f.yaml'], '--wec takes NAME=FILE, not =f.yaml'],
			[['--wec', 'east='], '--wec takes NAME=FILE, not east='],
			[['--workload'], '--workload takes FILE, not nothing'],
			[['--workload', '--json'], '--workload takes FILE, not --json'],
		] as const) {
			assert.deepEqual(parseOptions(argv, mergeSpec), { kind: 'error', message });
		}
		const dashed = parseOptions(['--workload=-w.yaml'], mergeSpec);
		assert.equal(dashed.kind === 'ok' && dashed.values.workload, '-w.yaml');
	});

	it('lets a command whose options name the inputs run without paths, and others not', () => {
		const quiet = { stdout: () => {}, stderr: () => {} };
		assert.equal(
			typeof optionsOrExit(['--workload', 'w.yaml'], mergeSpec, 'usage', quiet),
			'object',
		);
		assert.equal(optionsOrExit(['--json'], spec, 'usage', quiet), 2);
	});
});
