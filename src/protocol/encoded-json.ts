import type { JsonObject } from "./json-rpc";

/**
 * A JSON value already encoded as UTF-8 bytes. A handler returns one to answer with a file's text without decoding
 * the file to a string and encoding it back: the session writes these bytes into the response as they are.
 */
export class EncodedJson {
	/** The value's bytes in order; kept apart so a large text is copied once, when the answer is put together. */
	private constructor(private readonly chunks: readonly Buffer[]) {}

	/**
	 * `fields` with one more string field `key` (last) whose value is the text of `utf8`. The caller has checked that
	 * `utf8` is valid UTF-8 (`isUtf8`); its bytes are copied as they are, only escaped where JSON requires it.
	 */
	static objectWithText(fields: JsonObject, key: string, utf8: Uint8Array): EncodedJson {
		const head = JSON.stringify(fields);
		const opening = head === "{}" ? `{${JSON.stringify(key)}:` : `${head.slice(0, -1)},${JSON.stringify(key)}:`;
		return new EncodedJson([Buffer.from(opening, "utf8"), jsonStringOfUtf8(utf8), CLOSING_BRACE]);
	}

	/** A value already written as JSON text by our own encoder (e.g. the result inside an answer of another session). */
	static ofJsonText(json: string): EncodedJson {
		return new EncodedJson([Buffer.from(json, "utf8")]);
	}

	/** `before` + this value + `after`, e.g. to put an object into an array of a larger answer. */
	within(before: string, after: string): EncodedJson {
		return new EncodedJson([Buffer.from(before, "utf8"), ...this.chunks, Buffer.from(after, "utf8")]);
	}

	/** `before` + this value + `after` as one buffer: the whole message, ready to send. */
	joined(before: string, after: string): Buffer {
		return Buffer.concat([Buffer.from(before, "utf8"), ...this.chunks, Buffer.from(after, "utf8")]);
	}

	/** The value, parsed (for callers that need the object rather than its bytes). */
	parse(): unknown {
		return JSON.parse(this.joined("", "").toString("utf8"));
	}
}

const CLOSING_BRACE = Buffer.from("}");

/**
 * The JSON string literal of valid UTF-8 bytes, as UTF-8 bytes. JSON.stringify escapes only quotes, backslashes
 * and characters below U+0020 (and lone surrogates, which valid UTF-8 cannot hold), all ASCII: read as Latin-1,
 * every byte is one character, so escaping that string and writing it back as Latin-1 gives the UTF-8 bytes of
 * JSON.stringify(text) without ever decoding the UTF-8.
 */
export function jsonStringOfUtf8(utf8: Uint8Array): Buffer {
	const bytes = Buffer.isBuffer(utf8) ? utf8 : Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength);
	return Buffer.from(JSON.stringify(bytes.toString("latin1")), "latin1");
}
