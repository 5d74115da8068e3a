/**
 * The code a regex worker runs, as text: the same body serves a Node worker thread (headless host, stdio server)
 * and a Web Worker made from a Blob URL (Obsidian's renderer, where Node's worker_threads cannot start). It is
 * plain JavaScript in a string so it needs no file next to the bundle and no build step of its own.
 *
 * One request holds a pattern and a batch of texts; the answer holds, per text, the offset of the first match on
 * each line that has one (null when none), found exactly as the search tool did in the main thread before:
 * every match from the start with `exec`, an empty match stepping one character on (a whole code point with the
 * u or v flag: stepping into the middle of a surrogate pair made exec return the same empty match for ever).
 */

export interface RegexBatchRequest {
	id: number;
	source: string;
	flags: string;
	texts: string[];
}

export type RegexBatchReply = { id: number; starts: (number[] | null)[] } | { id: number; error: string };

const BODY = `
let compiledKey = "";
let compiled = null;
// Where the line after the one holding "from" starts; \\r\\n, \\r and \\n end a line (as LineTable counts them).
function nextLineStart(text, from) {
	for (let index = from; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === 10) return index + 1;
		if (code === 13) return text.charCodeAt(index + 1) === 10 ? index + 2 : index + 1;
	}
	return Infinity;
}
function stepOver(text, index, unicode) {
	if (!unicode) return index + 1;
	const code = text.charCodeAt(index);
	const next = text.charCodeAt(index + 1);
	return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? index + 2 : index + 1;
}
function firstMatchPerLine(pattern, text) {
	const unicode = pattern.unicode || pattern.unicodeSets === true;
	pattern.lastIndex = 0;
	let starts = null;
	let lineAfter = -1;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		if (match.index >= lineAfter) {
			(starts || (starts = [])).push(match.index);
			lineAfter = nextLineStart(text, match.index);
		}
		if (match[0] === "") pattern.lastIndex = stepOver(text, pattern.lastIndex, unicode);
	}
	return starts;
}
receive(function (request) {
	try {
		const key = request.flags + "/" + request.source;
		if (key !== compiledKey) {
			compiled = new RegExp(request.source, request.flags);
			compiledKey = key;
		}
		const pattern = compiled;
		send({ id: request.id, starts: request.texts.map(function (text) { return firstMatchPerLine(pattern, text); }) });
	} catch (error) {
		send({ id: request.id, error: String(error && error.message ? error.message : error) });
	}
});
`;

const NODE_PRELUDE = `
const port = require("node:worker_threads").parentPort;
function receive(handler) { port.on("message", handler); }
function send(message) { port.postMessage(message); }
`;

const WEB_PRELUDE = `
function receive(handler) { self.onmessage = function (event) { handler(event.data); }; }
function send(message) { self.postMessage(message); }
`;

/** For `new Worker(source, { eval: true })` from node:worker_threads. */
export const NODE_REGEX_WORKER_SOURCE = `"use strict";(function () {${NODE_PRELUDE}${BODY}})();`;

/** For a Web Worker loaded from a Blob URL. */
export const WEB_REGEX_WORKER_SOURCE = `"use strict";(function () {${WEB_PRELUDE}${BODY}})();`;
