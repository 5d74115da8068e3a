import { decodeBase64 } from "../../src/shared/base64-bytes";

function decoded(text: string, start = 0, end = text.length): number[] | undefined {
	const result = decodeBase64(Buffer.from(text, "latin1"), start, end);
	return result ? [...result] : undefined;
}

describe("decodeBase64", () => {
	it("decodes what Buffer encodes, every length of padding, from a range of the bytes", () => {
		for (let length = 0; length < 40; length++) {
			const bytes = Buffer.from(Array.from({ length }, (_, at) => (at * 97 + 13) & 0xff));
			const text = bytes.toString("base64");
			expect(decoded(text)).toEqual([...bytes]);
			expect(decoded(`"${text}"`, 1, text.length + 1)).toEqual([...bytes]);
		}
		expect(decoded("+/+/")).toEqual([...Buffer.from("+/+/", "base64")]);
	});

	it("answers undefined for anything but plain base64 (where Buffer would skip or guess)", () => {
		for (const text of ["QUJD RA==", "QUJ", "QUJDRA=", "Q=JD", "QU=D", "QUJDRA==QUJD", "QUJ-", "QUJ_", "QUJ\n"])
			expect(decoded(text)).toBeUndefined();
		expect(decodeBase64(Buffer.from("QUJD"), 2, 8)).toBeUndefined();
	});

	it("gives memory of its own, aligned for wider typed arrays", () => {
		const floats = new Float64Array([1.5, -2, 1e300]);
		const text = Buffer.from(floats.buffer).toString("base64");
		const bytes = decodeBase64(Buffer.from(`xx${text}`), 2, text.length + 2);
		expect(bytes?.byteOffset).toBe(0);
		expect([...new Float64Array(bytes?.buffer ?? new ArrayBuffer(0))]).toEqual([1.5, -2, 1e300]);
	});
});
