import { ArgumentError, parseCommandLine, type OptionSpecs } from "../../src/shared/command-line";

const OPTIONS = {
	vault: { kind: "text" },
	port: { kind: "port" },
	"private-folder": { kind: "texts" },
	debug: { kind: "flag" },
	help: { kind: "flag", short: "h" },
} as const satisfies OptionSpecs;

const parse = (argv: string[]) => parseCommandLine(argv, OPTIONS);

describe("parseCommandLine: the package's commands' options, declared as data", () => {
	it("gives every option its default when none is given", () => {
		expect(parse([])).toEqual({
			vault: undefined,
			port: undefined,
			"private-folder": [],
			debug: false,
			help: false,
		});
	});

	it("reads values, repeated values in order, ports, flags and the short spelling; a repeated value takes the last", () => {
		expect(
			parse([
				"--vault",
				"a",
				"--private-folder",
				"A",
				"--port",
				"4100",
				"--debug",
				"--private-folder",
				"B",
				"--vault",
				"b",
				"-h",
			]),
		).toEqual({
			vault: "b",
			port: 4100,
			"private-folder": ["A", "B"],
			debug: true,
			help: true,
		});
		// A value may start with one dash.
		expect(parse(["--vault", "-h"]).vault).toBe("-h");
	});

	it("says an option needs a value when it is last, empty, blank or followed by another option", () => {
		for (const argv of [
			["--vault"],
			["--vault", ""],
			["--vault", "  "],
			["--vault", "--debug"],
			["--vault", "--"],
		]) {
			expect(() => parse(argv)).toThrow(new ArgumentError("--vault needs a value"));
		}
		expect(() => parse(["--port"])).toThrow(new ArgumentError("--port needs a value"));
	});

	it("takes a port only as a whole number from 1 to 65535", () => {
		for (const value of ["0", "65536", "1.5", "abc", "-1"])
			expect(() => parse(["--port", value])).toThrow(
				new ArgumentError(`--port must be a whole number from 1 to 65535, not "${value}"`),
			);
		expect(parse(["--port", "65535"]).port).toBe(65535);
	});

	it("names any other argument, as it was typed, in parseArgs' place", () => {
		for (const argument of [
			"--bogus",
			"--bogus=1",
			"--vault=x",
			"--debug=1",
			"-x",
			"-hx",
			"positional",
			"-",
			"--",
			"--toString",
			"--__proto__",
		]) {
			expect(() => parse([argument])).toThrow(new ArgumentError(`Unknown argument: ${argument}`));
		}
		expect(() => parse(["--debug", "extra"])).toThrow(new ArgumentError("Unknown argument: extra"));
	});
});
