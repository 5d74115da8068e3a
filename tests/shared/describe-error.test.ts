import { runInNewContext } from "node:vm";
import { describeError, errorStack } from "../../src/shared/describe-error";

describe("describeError", () => {
	it("answers an error's message, also for errors made in another realm", () => {
		expect(describeError(new TypeError("bad type"))).toBe("bad type");
		const foreign: unknown = runInNewContext("new Error('from elsewhere')");
		expect(foreign instanceof Error).toBe(false);
		expect(describeError(foreign)).toBe("from elsewhere");
	});

	it("answers anything else as text", () => {
		expect(describeError("plain")).toBe("plain");
		expect(describeError(42)).toBe("42");
		expect(describeError(null)).toBe("null");
		expect(describeError(undefined)).toBe("undefined");
		expect(describeError({ message: 7 })).toBe("[object Object]");
	});
});

describe("errorStack", () => {
	it("answers the stack when there is one, else the description", () => {
		const error = new Error("with stack");
		expect(errorStack(error)).toBe(error.stack);
		expect(errorStack({ message: "no stack" })).toBe("no stack");
		expect(errorStack("text")).toBe("text");
	});
});
