import { encodeJsonLine, JsonLineDecoder, type JsonRecord } from "../../../src/agent/claude-cli/json-lines";

function decoder(maxLineBytes?: number): { decoder: JsonLineDecoder; messages: JsonRecord[]; skipped: string[] } {
	const messages: JsonRecord[] = [];
	const skipped: string[] = [];
	return {
		decoder: new JsonLineDecoder(
			{ message: (record) => messages.push(record), skipped: (reason) => skipped.push(reason) },
			maxLineBytes,
		),
		messages,
		skipped,
	};
}

describe("JsonLineDecoder", () => {
	it("joins a line split across chunks, even inside a UTF-8 character", () => {
		const { decoder: lines, messages } = decoder();
		const bytes = Buffer.from(encodeJsonLine({ text: "café ☕" }) + encodeJsonLine({ n: 2 }), "utf8");
		const cut = bytes.indexOf(0xe2) + 1;
		lines.push(bytes.subarray(0, 3));
		lines.push(bytes.subarray(3, cut));
		lines.push(bytes.subarray(cut));
		expect(messages).toEqual([{ text: "café ☕" }, { n: 2 }]);
	});

	it("reports a line that is not JSON, or not an object, and goes on with the next", () => {
		const { decoder: lines, messages, skipped } = decoder();
		lines.push('{"a":1}\nnot json at all\n[1,2]\n\n{"b":2}\n');
		expect(messages).toEqual([{ a: 1 }, { b: 2 }]);
		expect(skipped).toEqual([
			"a line that is not JSON: not json at all",
			"a JSON line that is not an object: [1,2]",
		]);
	});

	it("skips a line over the limit without keeping it, and decodes the lines after it", () => {
		const { decoder: lines, messages, skipped } = decoder(100);
		lines.push(`{"big":"${"x".repeat(60)}`);
		lines.push(`${"y".repeat(60)}"}\n{"small":true}\n`);
		expect(skipped).toEqual(["a line longer than 100 bytes"]);
		expect(messages).toEqual([{ small: true }]);
	});

	it("decodes a large line in many chunks", () => {
		const { decoder: lines, messages } = decoder();
		const text = "z".repeat(2_000_000);
		const line = encodeJsonLine({ text });
		for (let offset = 0; offset < line.length; offset += 65_536) lines.push(line.slice(offset, offset + 65_536));
		expect(messages).toEqual([{ text }]);
	});

	it("takes a last line without a newline when the stream ends", () => {
		const { decoder: lines, messages } = decoder();
		lines.push('{"last":1}');
		expect(messages).toEqual([]);
		lines.end();
		expect(messages).toEqual([{ last: 1 }]);
	});
});
