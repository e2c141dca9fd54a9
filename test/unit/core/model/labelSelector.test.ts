import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelSelectorMatcherOf } from '../../../../src/core/model/labelSelector.ts';

// Texts of k8s.io/apimachinery v0.36.3 (tag commit a5d91169467c7bb04cb45a9021afbc1a760c8b94), the version rancher/fleet
// v0.16.1 requires. Paths below are relative to that module.

/** pkg/api/validate/content/kube.go IsLabelKey: "name part " + RegexError(labelKeyErrMsg, labelKeyFmt, ...). */
const nameRule =
	"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
/** pkg/api/validate/content/kube.go IsLabelValue: RegexError(labelValueErrMsg, labelValueFmt, ...). */
const valueRule =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
/** pkg/api/validate/content/kube.go IsLabelKey: "prefix part " + dns.go IsDNS1123Subdomain's RegexError. */
const prefixRule =
	"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
/** pkg/api/validate/content/kube.go IsLabelKey, more than one '/'. */
const slashesRule =
	"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
/** pkg/labels/selector.go NewRequirement, In and NotIn. */
const emptyIn =
	"values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty";
/** pkg/labels/selector.go NewRequirement, Exists and DoesNotExist. */
const notEmpty = 'values set must be empty for exists and does not exist';

const exists = (key: string) => ({ matchExpressions: [{ key, operator: 'Exists' }] });

// Each row: why, the selector, the error, and where the text comes from. Field errors print as
// field/errors.go (*Error).Error: "<path>: Invalid value: <value>: <detail>", a string value with %q and a []string
// value with json.Marshal (a nil slice as null); several errors of one requirement as field/errors.go
// ErrorList.ToAggregate, printed by util/errors/errors.go aggregate.Error: one alone, several as "[a, b]".
const malformed: readonly (readonly [string, unknown, string])[] = [
	[
		// apis/meta/v1/helpers.go LabelSelectorAsSelector: fmt.Errorf("%q is not a valid label selector operator")
		'an unknown operator',
		{ matchExpressions: [{ key: 'env', operator: 'Foo', values: ['a'] }] },
		'"Foo" is not a valid label selector operator',
	],
	[
		// helpers.go LabelSelectorAsSelector: operators are case-sensitive
		'a lower-case operator',
		{ matchExpressions: [{ key: 'env', operator: 'in', values: ['a'] }] },
		'"in" is not a valid label selector operator',
	],
	[
		// helpers.go LabelSelectorAsSelector: a missing operator is the empty string
		'a missing operator',
		{ matchExpressions: [{ key: 'env' }] },
		'"" is not a valid label selector operator',
	],
	[
		// helpers.go LabelSelectorAsSelector checks the operator before NewRequirement checks the key
		'an unknown operator with a bad key',
		{ matchExpressions: [{ key: 'bad key', operator: 'Foo' }] },
		'"Foo" is not a valid label selector operator',
	],
	[
		// helpers.go: a JSON null entry decodes to the zero LabelSelectorRequirement
		'a null expression',
		{ matchExpressions: [null] },
		'"" is not a valid label selector operator',
	],
	[
		// labels/selector.go NewRequirement; helpers.go copies no values into a nil slice, printed null
		'In without values',
		{ matchExpressions: [{ key: 'env', operator: 'In', values: [] }] },
		emptyIn,
	],
	[
		// labels/selector.go NewRequirement
		'NotIn with no values field',
		{ matchExpressions: [{ key: 'env', operator: 'NotIn' }] },
		emptyIn,
	],
	[
		// labels/selector.go NewRequirement; field/errors.go ErrorBody json.Marshal of the []string
		'Exists with a value',
		{ matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] },
		`values: Invalid value: ["x"]: ${notEmpty}`,
	],
	[
		// labels/selector.go NewRequirement; field/errors.go ErrorBody json.Marshal
		'DoesNotExist with values',
		{ matchExpressions: [{ key: 'env', operator: 'DoesNotExist', values: ['a', 'b'] }] },
		`values: Invalid value: ["a","b"]: ${notEmpty}`,
	],
	[
		// labels/selector.go validateLabelKey (errors joined by "; "); content/kube.go IsLabelKey, errors.go EmptyError
		'an empty key',
		exists(''),
		`key: Invalid value: "": name part must be non-empty; ${nameRule}`,
	],
	[
		// labels/selector.go validateLabelKey; content/kube.go IsLabelKey
		'a key with a space',
		exists('bad key'),
		`key: Invalid value: "bad key": ${nameRule}`,
	],
	[
		// content/kube.go IsLabelKey, content/errors.go MaxLenError
		'a 64-byte name',
		exists('a'.repeat(64)),
		`key: Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 bytes`,
	],
	[
		// content/errors.go MaxLenError counts bytes (Go len): 32 × "é" is 64 bytes
		'a name of 32 two-byte characters',
		exists('é'.repeat(32)),
		`key: Invalid value: "${'é'.repeat(32)}": name part must be no more than 63 bytes; ${nameRule}`,
	],
	[
		// content/kube.go IsLabelKey, content/errors.go EmptyError
		'an empty prefix',
		exists('/name'),
		'key: Invalid value: "/name": prefix part must be non-empty',
	],
	[
		// content/kube.go IsLabelKey, content/dns.go IsDNS1123Subdomain
		'an upper-case prefix',
		exists('Example.com/name'),
		`key: Invalid value: "Example.com/name": ${prefixRule}`,
	],
	[
		// content/dns.go IsDNS1123Subdomain, content/errors.go MaxLenError
		'a 254-byte prefix',
		exists(`${'a'.repeat(254)}/name`),
		`key: Invalid value: "${'a'.repeat(254)}/name": prefix part must be no more than 253 bytes`,
	],
	[
		// content/kube.go IsLabelKey
		'an empty name after a prefix',
		exists('example.com/'),
		`key: Invalid value: "example.com/": name part must be non-empty; ${nameRule}`,
	],
	[
		// content/kube.go IsLabelKey, the default case
		'two slashes',
		exists('a/b/c'),
		`key: Invalid value: "a/b/c": ${slashesRule}`,
	],
	[
		// labels/selector.go validateLabelValue: path values[i][key]; content/kube.go IsLabelValue
		'a matchLabels value with a space',
		{ matchLabels: { env: 'bad value' } },
		`values[0][env]: Invalid value: "bad value": ${valueRule}`,
	],
	[
		// content/kube.go IsLabelValue, content/errors.go MaxLenError
		'a 64-byte value',
		{ matchLabels: { env: 'a'.repeat(64) } },
		`values[0][env]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`,
	],
	[
		// content/kube.go IsLabelValue: both errors, joined by "; " in validateLabelValue
		'a long value that starts with a dash',
		{ matchLabels: { env: `-${'a'.repeat(63)}` } },
		`values[0][env]: Invalid value: "-${'a'.repeat(63)}": must be no more than 63 bytes; ${valueRule}`,
	],
	[
		// labels/selector.go NewRequirement: values[i] indexes the value list
		'the second value of In',
		{ matchExpressions: [{ key: 'env', operator: 'In', values: ['ok', 'no way'] }] },
		`values[1][env]: Invalid value: "no way": ${valueRule}`,
	],
	[
		// labels/selector.go NewRequirement aggregates; util/errors/errors.go aggregate.Error prints "[a, b]"
		'a bad key and no values for In',
		{ matchExpressions: [{ key: 'bad key', operator: 'In', values: [] }] },
		`[key: Invalid value: "bad key": ${nameRule}, ${emptyIn}]`,
	],
	[
		// NewRequirement order: key, then the operator's value count, then each value
		'a bad key, Exists with a bad value',
		{ matchExpressions: [{ key: 'bad key', operator: 'Exists', values: ['x y'] }] },
		`[key: Invalid value: "bad key": ${nameRule}, values: Invalid value: ["x y"]: ${notEmpty}, ` +
			`values[0][bad key]: Invalid value: "x y": ${valueRule}]`,
	],
	[
		// field/errors.go ErrorBody: %q (strconv.Quote) for the key, json.Marshal escapes HTML characters
		'quoting as Go does',
		{ matchExpressions: [{ key: 'a"b\n', operator: 'Exists', values: ['<a>'] }] },
		`[key: Invalid value: "a\\"b\\n": ${nameRule}, values: Invalid value: ["\\u003ca\\u003e"]: ${notEmpty}, ` +
			`values[0][a"b\n]: Invalid value: "<a>": ${valueRule}]`,
	],
	[
		// strconv.Quote keeps printable non-ASCII and escapes the rest (U+00A0 is a space, not printable)
		'a non-ASCII value',
		{ matchLabels: { env: 'café\u00a0' } },
		`values[0][env]: Invalid value: "café\\u00a0": ${valueRule}`,
	],
	[
		// helpers.go LabelSelectorAsSelector: matchLabels are checked before matchExpressions
		'a bad label and an unknown operator',
		{ matchLabels: { env: 'bad value' }, matchExpressions: [{ key: 'a', operator: 'Foo' }] },
		`values[0][env]: Invalid value: "bad value": ${valueRule}`,
	],
	[
		// helpers.go LabelSelectorAsSelector: expressions in order, the first refused one is the error
		'the first bad expression',
		{
			matchExpressions: [
				{ key: 'ok', operator: 'Exists' },
				{ key: 'a', operator: 'In' },
				{ key: 'b', operator: 'Foo' },
			],
		},
		emptyIn,
	],
	[
		// helpers.go ranges over the matchLabels map in Go's random order; here the keys are sorted
		'two bad labels',
		{ matchLabels: { z: 'bad value', a: 'also bad' } },
		`values[0][a]: Invalid value: "also bad": ${valueRule}`,
	],
];

// Shapes encoding/json refuses before apimachinery sees the selector; the texts are this project's own.
const undecodable: readonly (readonly [string, unknown, string])[] = [
	['a selector that is a string', 'env=prod', 'selector is not an object'],
	['matchLabels that is a list', { matchLabels: [] }, 'selector.matchLabels is not an object'],
	[
		'a label value that is a number',
		{ matchLabels: { a: 1 } },
		'selector.matchLabels.a is not a string',
	],
	[
		'matchExpressions that is an object',
		{ matchExpressions: {} },
		'selector.matchExpressions is not a list',
	],
	[
		'an expression that is a string',
		{ matchExpressions: ['a'] },
		'selector.matchExpressions[0] is not an object',
	],
	[
		'a key that is a number',
		{ matchExpressions: [{ key: 5, operator: 'Exists' }] },
		'selector.matchExpressions[0].key is not a string',
	],
	[
		'an operator that is a list',
		{ matchExpressions: [{ key: 'a', operator: ['In'] }] },
		'selector.matchExpressions[0].operator is not a string',
	],
	[
		'a value that is a number',
		{ matchExpressions: [{ key: 'a', operator: 'In', values: [1] }] },
		'values of selector key "a" are not a list of strings',
	],
	[
		'values that are a string',
		{ matchExpressions: [{ key: 'a', operator: 'In', values: 'x' }] },
		'values of selector key "a" are not a list of strings',
	],
	[
		'a decoding error after a bad label',
		{
			matchLabels: { 'bad key': 'x' },
			matchExpressions: [{ key: 'a', operator: 'In', values: [1] }],
		},
		'values of selector key "a" are not a list of strings',
	],
];

describe('label selector errors, as apimachinery words them', () => {
	for (const [why, selector, error] of malformed) {
		it(why, () => {
			assert.deepEqual(labelSelectorMatcherOf(selector), { ok: false, error });
		});
	}
	for (const [why, selector, error] of undecodable) {
		it(`${why} (not decodable)`, () => {
			assert.deepEqual(labelSelectorMatcherOf(selector), { ok: false, error });
		});
	}
});

describe('label selector matching', () => {
	const labels = { env: 'prod', region: 'eu', 'example.com/tier': '' };
	const matches = (selector: unknown, on: Readonly<Record<string, string>> = labels) => {
		const matcher = labelSelectorMatcherOf(selector);
		assert.ok(matcher.ok, matcher.ok ? '' : matcher.error);
		return matcher.matches(on);
	};

	it('selects nothing without a selector and everything with an empty one', () => {
		assert.equal(matches(undefined), false);
		assert.equal(matches(null), false);
		assert.equal(matches({}), true);
		assert.equal(matches({}, {}), true);
		assert.equal(matches({ matchLabels: {}, matchExpressions: [] }), true);
		assert.equal(matches({ matchLabels: null, matchExpressions: null }), true);
	});

	it('matches labels by exact value, a prefixed key and an empty value included', () => {
		assert.equal(matches({ matchLabels: { env: 'prod' } }), true);
		assert.equal(matches({ matchLabels: { env: 'staging' } }), false);
		assert.equal(matches({ matchLabels: { 'example.com/tier': '' } }), true);
		assert.equal(matches({ matchLabels: { zone: '' } }), false);
	});

	it('In needs the key with one of the values', () => {
		const inProd = { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }] };
		assert.equal(matches(inProd), true);
		assert.equal(matches(inProd, { env: 'staging' }), false);
		assert.equal(matches(inProd, {}), false);
	});

	it('NotIn matches a label of another value and an absent label', () => {
		const notProd = { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] };
		assert.equal(matches(notProd), false);
		assert.equal(matches(notProd, { env: 'staging' }), true);
		assert.equal(matches(notProd, {}), true);
	});

	it('Exists and DoesNotExist look at the key only, not at inherited properties', () => {
		assert.equal(matches(exists('region')), true);
		assert.equal(matches(exists('zone')), false);
		assert.equal(matches(exists('constructor'), {}), false);
		const noRegion = { matchExpressions: [{ key: 'region', operator: 'DoesNotExist' }] };
		assert.equal(matches(noRegion), false);
		assert.equal(matches(noRegion, { env: 'prod' }), true);
	});

	it('ANDs matchLabels with every expression', () => {
		const selector = {
			matchLabels: { env: 'prod' },
			matchExpressions: [
				{ key: 'region', operator: 'In', values: ['eu', 'us'] },
				{ key: 'legacy', operator: 'DoesNotExist' },
			],
		};
		assert.equal(matches(selector), true);
		assert.equal(matches(selector, { env: 'prod', region: 'ap' }), false);
		assert.equal(matches(selector, { env: 'dev', region: 'eu' }), false);
		assert.equal(matches(selector, { env: 'prod', region: 'eu', legacy: 'yes' }), false);
	});
});
