import { EXIT_BAD_INPUT, EXIT_FAILED, exitWith } from "../../src/headless/exit";

describe("exitWith", () => {
	afterEach(() => jest.restoreAllMocks());

	it("writes one line on stderr, whatever line breaks the message holds, and exits with the code", () => {
		const writes: string[] = [];
		jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
			writes.push(String(chunk));
			return true;
		});
		jest.spyOn(process, "exit").mockImplementation((code?: string | number | null) => {
			throw new Error(`exit ${String(code)}`);
		});
		expect(() => exitWith(EXIT_BAD_INPUT, "first line\n  second line\n")).toThrow(`exit ${EXIT_BAD_INPUT}`);
		expect(writes).toEqual(["first line second line\n"]);
	});

	it("keeps bad input and failure apart", () => {
		expect([EXIT_BAD_INPUT, EXIT_FAILED]).toEqual([2, 1]);
	});
});
