import { PassThrough } from "node:stream";
import { LineTransport } from "../../../src/vault-tools/stdio/line-transport";

function harness(maxLineBytes = 64) {
	const input = new PassThrough();
	const output = new PassThrough();
	const lines: string[] = [];
	const events: string[] = [];
	let written = "";
	output.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
	const transport = new LineTransport({
		input,
		output,
		maxLineBytes,
		onLine: (line) => lines.push(line),
		onOversize: () => events.push("oversize"),
		onEnd: () => events.push("end"),
		log: (message) => events.push(`log: ${message}`),
	});
	return { input, transport, lines, events, written: () => written };
}

/** Lets the stream deliver what was written. */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("LineTransport: MCP's newline-delimited stdio framing", () => {
	it("reassembles lines split across chunks, even inside a multi-byte character, and drops CR and blank lines", async () => {
		const { input, lines } = harness();
		const bytes = Buffer.from('{"a":"é😀"}\r\n\n  \n{"b":1}\n', "utf8");
		for (let index = 0; index < bytes.length; index++) input.write(bytes.subarray(index, index + 1));
		await flush();
		expect(lines).toEqual(['{"a":"é😀"}', '{"b":1}']);
	});

	it("delivers a last line without a newline when the input ends, then reports the end once", async () => {
		const { input, lines, events } = harness();
		input.end('{"last":true}');
		await flush();
		input.destroy();
		await flush();
		expect(lines).toEqual(['{"last":true}']);
		expect(events).toEqual(["end"]);
	});

	it("drops a line over the cap unread, reports it once, and reads the next line", async () => {
		const { input, lines, events } = harness(16);
		input.write(`{"big":"${"x".repeat(40)}`);
		input.write(`${"y".repeat(40)}"}\n{"ok":1}\n`);
		await flush();
		expect(events).toEqual(["oversize"]);
		expect(lines).toEqual(['{"ok":1}']);
	});

	it("writes each message as one line", async () => {
		const { transport, written } = harness();
		transport.send('{"x":1}');
		transport.send('{"y":2}');
		await flush();
		expect(written()).toBe('{"x":1}\n{"y":2}\n');
	});
});
