/* eslint-disable no-control-regex -- terminal control sequences are made of control characters */
const CURSOR_COLUMN_MOVE = /\x1b\[\d*[CG]/g;
const CSI_SEQUENCE = /\x1b\[[0-9;?<>=]*[ -/]*[@-~]/g;
const OSC_SEQUENCE = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const OTHER_ESCAPE = /\x1b(?:[()][0-9A-Za-z]|[=>78DEHMNOPZc\\])/g;
/* eslint-enable no-control-regex -- end of the escape-sequence patterns */

/**
 * Turns raw terminal output into searchable text. Horizontal cursor jumps become one space, because the
 * CLI's renderer draws the gaps between words with them; other control sequences are dropped.
 */
export function stripTerminalControls(raw: string): string {
	return raw
		.replace(OSC_SEQUENCE, "")
		.replace(CURSOR_COLUMN_MOVE, " ")
		.replace(CSI_SEQUENCE, "")
		.replace(OTHER_ESCAPE, "")
		.replace(/\r/g, "");
}

export function withoutWhitespace(text: string): string {
	return text.replace(/\s+/g, "");
}
