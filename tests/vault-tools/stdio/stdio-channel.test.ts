import { PassThrough } from "node:stream";
import { MAX_INCOMING_MESSAGE_BYTES } from "../../../src/server/limits";
import { StdioChannel } from "../../../src/vault-tools/stdio/stdio-channel";
import { waitUntil } from "../../helpers/wait-until";

function channel(handle: (line: string) => Promise<void>, graceMs?: number) {
	const input = new PassThrough();
	const output = new PassThrough();
	const written: string[] = [];
	output.on("data", (chunk: Buffer) => written.push(chunk.toString("utf8")));
	let stopped = 0;
	const opened = new StdioChannel({
		input,
		output,
		handle,
		stop: () => stopped++,
		log: () => undefined,
		...(graceMs !== undefined ? { graceMs } : {}),
	});
	return { input, written, opened, stopped: () => stopped };
}

describe("StdioChannel", () => {
	it("hands each line to the session and writes what it sends, one frame per line", async () => {
		const lines: string[] = [];
		const { input, written, opened } = channel((line) => {
			lines.push(line);
			opened.send(`answer to ${line}`);
			return Promise.resolve();
		});
		input.write("one\ntwo\n");
		await waitUntil(() => lines.length === 2, "both lines");
		expect(lines).toEqual(["one", "two"]);
		expect(written.join("")).toBe("answer to one\nanswer to two\n");
	});

	it("answers a frame over the size limit with an error, unread", async () => {
		const lines: string[] = [];
		const { input, written } = channel((line) => {
			lines.push(line);
			return Promise.resolve();
		});
		input.write(`${"x".repeat(MAX_INCOMING_MESSAGE_BYTES + 1)}\nafter\n`);
		await waitUntil(() => lines.length === 1, "the next line");
		expect(lines).toEqual(["after"]);
		expect(JSON.parse(written.join(""))).toMatchObject({ id: null, error: { code: -32600 } });
	});

	it("stops once the calls made before stdin closed are answered", async () => {
		let finish: () => void = () => undefined;
		const { input, stopped } = channel(() => new Promise<void>((resolve) => (finish = resolve)));
		input.write("call\n");
		input.end();
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(stopped()).toBe(0);
		finish();
		await waitUntil(() => stopped() > 0, "the stop");
	});

	it("stops after the grace period when a call still runs", async () => {
		const { input, stopped } = channel(() => new Promise<void>(() => undefined), 10);
		input.write("call\n");
		input.end();
		await waitUntil(() => stopped() > 0, "the stop after the grace period");
	});
});
