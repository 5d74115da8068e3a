import { contentHash, sameBytes } from "../../src/journal/content-hash";

describe("contentHash", () => {
	it("is the SHA-256 of the bytes, so one changed byte changes it", () => {
		expect(contentHash(Buffer.from("abc"))).toBe(
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		);
		expect(contentHash(Buffer.from("a\r\n"))).not.toBe(contentHash(Buffer.from("a\n")));
	});

	it("compares bytes, views of a larger buffer included", () => {
		const big = Buffer.from("xxabcxx");
		expect(sameBytes(big.subarray(2, 5), Buffer.from("abc"))).toBe(true);
		expect(sameBytes(Buffer.from("abc"), Buffer.from("abd"))).toBe(false);
	});
});
