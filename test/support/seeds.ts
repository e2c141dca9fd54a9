// Seed and size settings of the randomised tests, from the environment: KSL_SEED replays one seed, KSL_FIRST_SEED,
// KSL_SEEDS and KSL_STEPS choose how many run.

/** An integer environment variable, or undefined when unset or empty. */
export function envNumber(name: string): number | undefined {
	const value = process.env[name];
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	if (!Number.isInteger(number)) throw new Error(`${name} must be an integer, not ${value}`);
	return number;
}
