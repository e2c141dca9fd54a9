import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { excludeMatcher, globMatcher } from '../../../src/files/glob.ts';

function check(pattern: string, matches: readonly string[], misses: readonly string[]): void {
	const matcher = globMatcher([pattern]);
	for (const path of matches) assert.equal(matcher(path), true, `${pattern} should match ${path}`);
	for (const path of misses) {
		assert.equal(matcher(path), false, `${pattern} should not match ${path}`);
	}
}

describe('globMatcher (VS Code setting globs against folder-relative paths)', () => {
	it('`*` and `?` stay within one segment', () => {
		check('*.yaml', ['a.yaml', '.yaml'], ['dir/a.yaml', 'a.yml', 'a.yaml.bak']);
		check('a?c.json', ['abc.json', 'a.c.json'], ['ac.json', 'a/c.json', 'abbc.json']);
		check('dir/*', ['dir/x', 'dir/.hidden'], ['dir', 'dir/x/y', 'other/dir/x']);
	});

	it('a pattern without `**` is anchored at the folder', () => {
		check('build', ['build'], ['src/build', 'build/x.yaml', 'builder']);
		check('/build', ['build'], ['src/build']);
		check('./build', ['build'], ['src/build']);
		check('out/', ['out'], ['src/out']);
	});

	it('`**` spans any number of segments, none included', () => {
		check(
			'**/node_modules',
			['node_modules', 'a/b/node_modules'],
			['node_modules/x', 'xnode_modules'],
		);
		check(
			'**/node_modules/**',
			['node_modules', 'node_modules/x/y.yaml', 'a/node_modules/b'],
			['a/node_modules_old/b'],
		);
		check('a/**', ['a', 'a/b', 'a/b/c.yaml'], ['ab', 'b/a/c']);
		check('a/**/b', ['a/b', 'a/x/b', 'a/x/y/b'], ['a/xb', 'ab', 'a/b/c']);
		check('**', ['x', 'a/b/c'], []);
		check('**/**', ['x', 'a/b/c'], []);
		check('**/*.{yaml,yml,json}', ['a.yaml', 'd/e/f.yml', 'x.json'], ['a.txt', 'a.yaml/b']);
		check('a/**/**/b', ['a/b', 'a/x/b'], ['b']);
	});

	it('braces hold whole globs, nested ones too', () => {
		check(
			'{charts,templates}/**',
			['charts/x.yaml', 'templates', 'templates/a/b'],
			['src/charts/x'],
		);
		check('{**/*.tmpl.yaml,docs/*}', ['a/b.tmpl.yaml', 'docs/x'], ['docs/a/b']);
		check('x.{a,{b,c}}', ['x.a', 'x.b', 'x.c'], ['x.d', 'x.{b,c}']);
		check('{unclosed', ['{unclosed'], ['unclosed']);
	});

	it('character classes: sets, ranges, negation, never the separator', () => {
		check('v[0-9].yaml', ['v1.yaml', 'v9.yaml'], ['va.yaml', 'v10.yaml']);
		check('[!.]*.yaml', ['a.yaml'], ['.a.yaml']);
		check('[^.]*.yaml', ['a.yaml'], ['.a.yaml']);
		check('a[/]b', [], ['a/b']);
		check('a[!x]b', ['a-b'], ['a/b', 'axb']);
		check('[]x]', [']', 'x'], ['y']);
		check('[a-]', ['a', '-'], ['b']);
		check('a[b', ['a[b'], ['ab']);
	});

	it('regular-expression characters are plain characters', () => {
		check('a+b(1).yaml', ['a+b(1).yaml'], ['aab1.yaml']);
		check('$x^.yaml', ['$x^.yaml'], []);
	});

	it('several patterns: any of them; none or empty ones: nothing', () => {
		const matcher = globMatcher(['**/.git', 'dist/**', '']);
		assert.equal(matcher('a/.git'), true);
		assert.equal(matcher('dist/x.yaml'), true);
		assert.equal(matcher('src/x.yaml'), false);
		assert.equal(globMatcher([])('x'), false);
		assert.equal(globMatcher([' '])('x'), false);
	});

	it('exclude entries with a `when` clause apply only beside the named sibling', () => {
		const exclude = excludeMatcher([{ glob: '**/*.js', when: '$(basename).ts' }, { glob: 'out' }]);
		const siblings =
			(...names: string[]) =>
			(name: string) =>
				names.includes(name);
		assert.equal(exclude('src/a.js', siblings('a.ts', 'a.js')), true);
		assert.equal(exclude('src/a.js', siblings('b.ts', 'a.js')), false);
		assert.equal(exclude('src/a.min.js', siblings('a.min.ts')), true);
		assert.equal(exclude('src/a.ts', siblings('a.ts')), false);
		assert.equal(exclude('out', siblings()), true);
		assert.equal(
			excludeMatcher([{ glob: '**/.*', when: '$(basename).keep' }])(
				'x/.env',
				siblings('.env.keep'),
			),
			true,
		);
	});
});
