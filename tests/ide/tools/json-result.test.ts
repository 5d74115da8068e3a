import { jsonResult } from "../../../src/ide/tools/json-result";

describe("jsonResult", () => {
	it("answers one text block holding the value as JSON, not marked as an error", () => {
		const result = jsonResult({ success: true, path: 'a "quoted" name', list: [1, 2] });
		expect(result).toEqual({
			content: [{ type: "text", text: '{"success":true,"path":"a \\"quoted\\" name","list":[1,2]}' }],
		});
	});
});
