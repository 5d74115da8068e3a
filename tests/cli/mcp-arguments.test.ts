import { MCP_USAGE, parseMcpArguments } from "../../src/cli/mcp-arguments";
import { ArgumentError } from "../../src/shared/command-line";

describe("parseMcpArguments", () => {
	it("reads the vault, repeated private folders and tags, and --debug", () => {
		expect(
			parseMcpArguments([
				"--vault",
				"/v",
				"--private-folder",
				"A",
				"--private-tag",
				"secret",
				"--private-folder",
				"B",
				"--debug",
			]),
		).toEqual({
			vault: "/v",
			privateFolders: ["A", "B"],
			privateTags: ["secret"],
			debug: true,
			help: false,
		});
	});

	it("asks for help without needing a vault", () => {
		expect(parseMcpArguments(["-h"])).toEqual({ help: true, privateFolders: [], privateTags: [], debug: false });
		expect(parseMcpArguments(["--help"]).help).toBe(true);
	});

	it("refuses a missing vault, a missing value and unknown arguments, each in one line", () => {
		expect(() => parseMcpArguments([])).toThrow(
			new ArgumentError("--vault DIR is required: the vault folder whose notes the tools serve"),
		);
		expect(() => parseMcpArguments(["--vault"])).toThrow("--vault needs a value");
		expect(() => parseMcpArguments(["--vault", "--debug"])).toThrow("--vault needs a value");
		expect(() => parseMcpArguments(["--vault", "/v", "--port", "1"])).toThrow("Unknown argument: --port");
		expect(() => parseMcpArguments(["--vault", "/v", "--port"])).toThrow(ArgumentError);
	});

	it("documents every option it accepts", () => {
		for (const option of ["--vault DIR", "--private-folder F", "--private-tag T", "--debug"])
			expect(MCP_USAGE).toContain(option);
	});
});
