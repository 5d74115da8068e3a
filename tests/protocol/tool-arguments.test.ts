import {
	answeringArgumentErrors,
	NO_ARGUMENTS_SCHEMA,
	optionalBoolean,
	optionalLine,
	optionalString,
	requiredString,
	ToolArgumentError,
} from "../../src/protocol/tool-arguments";

describe("tool arguments", () => {
	it("requiredString answers the string, else names the tool, argument and the type given", () => {
		expect(requiredString({ path: "a.md" }, "path", "read")).toBe("a.md");
		expect(() => requiredString({}, "path", "read")).toThrow('read: "path" is required and must be a string');
		expect(() => requiredString({ path: null }, "path", "read")).toThrow(
			'read: "path" is required and must be a string, not null',
		);
		expect(() => requiredString({ path: ["a"] }, "path", "read")).toThrow(
			'read: "path" is required and must be a string, not an array',
		);
		expect(() => requiredString({ path: {} }, "path", "read")).toThrow(ToolArgumentError);
	});

	it("optionalString and optionalBoolean take missing and null as absent", () => {
		expect(optionalString({}, "q", "t")).toBeUndefined();
		expect(optionalString({ q: null }, "q", "t")).toBeUndefined();
		expect(optionalString({ q: "" }, "q", "t")).toBe("");
		expect(() => optionalString({ q: 1 }, "q", "t")).toThrow('t: "q" must be a string, not a number');
		expect(optionalBoolean({}, "b", "t", true)).toBe(true);
		expect(optionalBoolean({ b: null }, "b", "t", false)).toBe(false);
		expect(optionalBoolean({ b: false }, "b", "t", true)).toBe(false);
		expect(() => optionalBoolean({ b: "true" }, "b", "t", false)).toThrow(
			't: "b" must be true or false, not a string',
		);
	});

	it("optionalLine takes whole numbers of 0 or more", () => {
		expect(optionalLine({}, "line", "t")).toBeUndefined();
		expect(optionalLine({ line: 0 }, "line", "t")).toBe(0);
		expect(optionalLine({ line: 12 }, "line", "t")).toBe(12);
		for (const bad of [-1, 1.5, "3", true])
			expect(() => optionalLine({ line: bad }, "line", "t")).toThrow(
				`t: "line" must be a whole number of 0 or more, not ${JSON.stringify(bad)}`,
			);
	});

	it("answeringArgumentErrors turns a ToolArgumentError into an error result and lets other errors through", async () => {
		expect(await answeringArgumentErrors(() => ({ content: [{ type: "text", text: "ok" }] }))).toEqual({
			content: [{ type: "text", text: "ok" }],
		});
		expect(await answeringArgumentErrors(() => Promise.reject(new ToolArgumentError("t: bad")))).toEqual({
			isError: true,
			content: [{ type: "text", text: "t: bad" }],
		});
		await expect(answeringArgumentErrors(() => Promise.reject(new Error("crash")))).rejects.toThrow("crash");
	});

	it("NO_ARGUMENTS_SCHEMA allows no argument", () => {
		expect(NO_ARGUMENTS_SCHEMA).toEqual({ type: "object", properties: {}, additionalProperties: false });
	});
});
