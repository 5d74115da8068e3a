/**
 * Newline-delimited JSON, as the CLI speaks it in stream-json mode on stdin and stdout. Chunks may split a line
 * anywhere (even inside a UTF-8 character); a line that is not JSON, or not an object, or longer than the limit,
 * is reported and skipped, never thrown.
 */

export type JsonRecord = Record<string, unknown>;

/** 64 MiB: a tool result or a transcript replay can be large, but a line beyond this is a runaway. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface JsonLineSink {
	message(record: JsonRecord): void;
	/** A line that was skipped, with why (one line, no more than a short excerpt of the input). */
	skipped(reason: string): void;
}

export function isJsonRecord(value: unknown): value is JsonRecord {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function encodeJsonLine(record: JsonRecord): string {
	return `${JSON.stringify(record)}\n`;
}

const NEWLINE = 0x0a;

export class JsonLineDecoder {
	private pending: Buffer[] = [];
	private pendingBytes = 0;
	private overflowing = false;

	constructor(
		private readonly sink: JsonLineSink,
		private readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
	) {}

	push(chunk: Buffer | string): void {
		let data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
		for (let newline = data.indexOf(NEWLINE); newline >= 0; newline = data.indexOf(NEWLINE)) {
			this.take(data.subarray(0, newline));
			this.finishLine();
			data = data.subarray(newline + 1);
		}
		if (data.length > 0) this.take(data);
	}

	/** The stream ended: a last line without a newline still counts. */
	end(): void {
		if (this.pendingBytes > 0 || this.overflowing) this.finishLine();
	}

	private take(part: Buffer): void {
		if (this.overflowing) return;
		if (this.pendingBytes + part.length > this.maxLineBytes) {
			this.overflowing = true;
			this.pending = [];
			this.pendingBytes = 0;
			return;
		}
		this.pending.push(part);
		this.pendingBytes += part.length;
	}

	private finishLine(): void {
		if (this.overflowing) {
			this.overflowing = false;
			this.sink.skipped(`a line longer than ${this.maxLineBytes} bytes`);
			return;
		}
		const text = Buffer.concat(this.pending, this.pendingBytes).toString("utf8").trim();
		this.pending = [];
		this.pendingBytes = 0;
		if (text === "") return;
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			this.sink.skipped(`a line that is not JSON: ${excerpt(text)}`);
			return;
		}
		if (isJsonRecord(value)) this.sink.message(value);
		else this.sink.skipped(`a JSON line that is not an object: ${excerpt(text)}`);
	}
}

function excerpt(text: string): string {
	const oneLine = text.replace(/\s+/g, " ");
	return oneLine.length > 80 ? `${oneLine.slice(0, 80)}…` : oneLine;
}
