import { StringDecoder } from "node:string_decoder";
import type { Readable, Writable } from "node:stream";

export interface LineTransportOptions {
	input: Readable;
	output: Writable;
	/** Called once per complete line (without its line ending); blank lines are skipped. */
	onLine: (line: string) => void;
	/** The input ended or failed: no more lines will come. */
	onEnd: () => void;
	/** A line longer than this is dropped unparsed, and `onOversize` is told. */
	maxLineBytes: number;
	onOversize: () => void;
	/** Something to say on stderr, never on stdout. */
	log: (message: string) => void;
}

/**
 * MCP's stdio framing: one JSON-RPC message per line, UTF-8, no embedded newlines. Reads lines from `input`, and
 * writes each outgoing message followed by "\n" to `output`, which carries nothing else.
 */
export class LineTransport {
	private readonly decoder = new StringDecoder("utf8");
	private buffer = "";
	/** Inside an over-long line: everything up to its newline is thrown away. */
	private discarding = false;
	private ended = false;

	constructor(private readonly options: LineTransportOptions) {
		options.input.on("data", (chunk: Buffer | string) =>
			this.receive(typeof chunk === "string" ? chunk : this.decoder.write(chunk)),
		);
		options.input.once("end", () => this.end());
		options.input.once("close", () => this.end());
		options.input.once("error", (error) => {
			options.log(`stdin failed: ${error.message}`);
			this.end();
		});
		// A client that goes away while an answer is being written: nothing more can be sent.
		options.output.on("error", (error) => options.log(`stdout failed: ${error.message}`));
	}

	send(message: string): void {
		if (this.options.output.writable) this.options.output.write(`${message}\n`);
	}

	private receive(text: string): void {
		let start = 0;
		for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
			const piece = text.slice(start, newline);
			start = newline + 1;
			if (this.discarding) {
				this.discarding = false;
				this.buffer = "";
				continue;
			}
			const line = this.buffer + piece;
			this.buffer = "";
			this.deliver(line);
		}
		if (this.discarding) return;
		this.buffer += text.slice(start);
		// A UTF-16 code unit is at most 3 UTF-8 bytes, so short buffers need no byte count.
		if (
			this.buffer.length * 3 > this.options.maxLineBytes &&
			Buffer.byteLength(this.buffer, "utf8") > this.options.maxLineBytes
		) {
			this.buffer = "";
			this.discarding = true;
			this.options.onOversize();
		}
	}

	private deliver(raw: string): void {
		const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
		if (line.trim() === "") return;
		if (Buffer.byteLength(line, "utf8") > this.options.maxLineBytes) {
			this.options.onOversize();
			return;
		}
		this.options.onLine(line);
	}

	private end(): void {
		if (this.ended) return;
		this.ended = true;
		const rest = this.buffer + this.decoder.end();
		this.buffer = "";
		if (!this.discarding && rest.trim() !== "") this.deliver(rest);
		this.options.onEnd();
	}
}
