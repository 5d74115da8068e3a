/** How a check came out: fine, worth knowing, or a reason why `/ide` cannot find or reach the vault. */
export type DoctorLevel = "ok" | "warn" | "fail";

/** One finding of the doctor. Every `fail` (and most `warn`s) carries `fix`: what to do about it. */
export interface DoctorLine {
	level: DoctorLevel;
	what: string;
	fix?: string;
	/** A shell command the text names (the launch command, an `rm` of a stale lock file), for a copy button. */
	command?: string;
}

export function ok(what: string): DoctorLine {
	return { level: "ok", what };
}

export function warn(what: string, fix?: string): DoctorLine {
	return fix === undefined ? { level: "warn", what } : { level: "warn", what, fix };
}

export function fail(what: string, fix: string): DoctorLine {
	return { level: "fail", what, fix };
}

/** The line with the shell command it names. */
export function withCommand(line: DoctorLine, command: string): DoctorLine {
	return { ...line, command };
}

const LABELS: Record<DoctorLevel, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };

/** Plain text for a terminal: one line per finding, its fix indented below, and a count at the end. */
export function formatDoctorReport(lines: readonly DoctorLine[]): string {
	const text: string[] = [];
	for (const line of lines) {
		text.push(`${LABELS[line.level]} ${line.what}`);
		if (line.fix) text.push(`     Fix: ${line.fix}`);
	}
	const count = (level: DoctorLevel, noun: string) => {
		const n = lines.filter((line) => line.level === level).length;
		return noun === "" ? `${n} ok` : `${n} ${noun}${n === 1 ? "" : "s"}`;
	};
	text.push(`${count("ok", "")}, ${count("warn", "warning")}, ${count("fail", "failure")}`);
	return text.join("\n");
}

/** A POSIX mode as the four octal digits `ls` users know (0600). */
export function octalMode(mode: number): string {
	return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}
