import { RefusedPathError } from "../../../src/vault/notes/vault-files";

describe("RefusedPathError", () => {
	it("is an Error named for what it is, carrying the words the client sees", () => {
		const error = new RefusedPathError("Not found: Private/a.md");
		expect(error).toBeInstanceOf(Error);
		expect(error.name).toBe("RefusedPathError");
		expect(error.message).toBe("Not found: Private/a.md");
	});
});
