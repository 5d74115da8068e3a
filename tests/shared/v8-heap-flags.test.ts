import { setFlagsFromString } from "node:v8";
import { restoreHeapFlags, setHeapFlags } from "../../src/shared/v8-heap-flags";

jest.mock("node:v8", () => ({ setFlagsFromString: jest.fn() }));

describe("V8 heap flags", () => {
	it("sets the flags, and sets the same ones again, in order, when restored (a worker's start resets one)", () => {
		const set = jest.mocked(setFlagsFromString);
		restoreHeapFlags();
		expect(set).not.toHaveBeenCalled();
		setHeapFlags("--semi-space-growth-factor=1", "--heap-growing-percent=30");
		expect(set.mock.calls).toEqual([["--semi-space-growth-factor=1"], ["--heap-growing-percent=30"]]);
		set.mockClear();
		restoreHeapFlags();
		expect(set.mock.calls).toEqual([["--semi-space-growth-factor=1"], ["--heap-growing-percent=30"]]);
	});
});
