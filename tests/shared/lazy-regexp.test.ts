import { lazyRegExp } from "../../src/shared/lazy-regexp";

describe("lazyRegExp", () => {
	it("makes the pattern with its flags, the same one each time", () => {
		const letter = lazyRegExp(String.raw`^\p{L}+$`, "u");
		expect(letter().test("Éloïse")).toBe(true);
		expect(letter().test("a1")).toBe(false);
		expect(letter().flags).toBe("u");
		expect(letter()).toBe(letter());
	});

	it("reports a bad pattern when first asked for, not when declared", () => {
		const broken = lazyRegExp("[", "u");
		expect(() => broken()).toThrow(SyntaxError);
	});
});
