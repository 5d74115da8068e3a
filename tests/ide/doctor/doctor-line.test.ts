import { fail, formatDoctorReport, octalMode, ok, warn, withCommand } from "../../../src/ide/doctor/doctor-line";

describe("doctor lines", () => {
	it("carry a level, what was found and, for problems, the fix", () => {
		expect(ok("fine")).toEqual({ level: "ok", what: "fine" });
		expect(warn("odd")).toEqual({ level: "warn", what: "odd" });
		expect(warn("odd", "do this")).toEqual({ level: "warn", what: "odd", fix: "do this" });
		expect(fail("broken", "mend it")).toEqual({ level: "fail", what: "broken", fix: "mend it" });
		expect(withCommand(warn("stale", 'rm "x"'), 'rm "x"')).toEqual({
			level: "warn",
			what: "stale",
			fix: 'rm "x"',
			command: 'rm "x"',
		});
	});

	it("print one line per finding, the fix indented below, and the counts", () => {
		expect(formatDoctorReport([ok("a"), warn("b", "fix b"), fail("c", "fix c"), ok("d")])).toBe(
			[
				"ok   a",
				"warn b",
				"     Fix: fix b",
				"FAIL c",
				"     Fix: fix c",
				"ok   d",
				"2 ok, 1 warning, 1 failure",
			].join("\n"),
		);
		expect(formatDoctorReport([])).toBe("0 ok, 0 warnings, 0 failures");
	});

	it("show a mode as four octal digits", () => {
		expect(octalMode(0o600)).toBe("0600");
		expect(octalMode(0o100644)).toBe("0644");
		expect(octalMode(0o7)).toBe("0007");
	});
});
