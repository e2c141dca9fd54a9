/** A zero-based line and character position, independent of any editor API. */
export interface Position {
	readonly line: number;
	readonly character: number;
}

/** A range between two positions, end exclusive. */
export interface Range {
	readonly start: Position;
	readonly end: Position;
}
