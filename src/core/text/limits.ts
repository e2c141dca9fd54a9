// How much of one untrusted string (a name, a message, a reason) any view shows. A file or a cluster can hold a
// megabyte in one field; shown whole it would make megabyte tree rows, tooltips and documents. Each view cuts at its
// limit and says how much it left out; the object's YAML (the file, or "Open YAML" for a live object) holds it all.

/** A tree row's label or description. */
export const rowTextLimit = 200;

/** One string on a line of a tooltip or a hover. */
export const hoverTextLimit = 1_000;

/** One string in an Explain document or a copied status summary. */
export const documentTextLimit = 10_000;

/**
 * Text shortened to at most `max` of its characters, followed by "… (N more characters)" when it was cut. Never
 * splits a surrogate pair.
 */
export function truncate(text: string, max: number): string {
	if (text.length <= max) return text;
	let end = Math.max(0, max);
	const last = text.charCodeAt(end - 1);
	if (last >= 0xd800 && last <= 0xdbff) end--;
	return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}
