import type { DoctorLevel, DoctorLine } from "../../ide/doctor/doctor-line";
import { commandBlock } from "./command-block";

const LEVEL_LABELS: Record<DoctorLevel, string> = { ok: "OK", warn: "Warning", fail: "Problem" };

/** What to try when every check passes and /ide still does not list the vault: what the checks cannot see. */
const TIPS = [
	"With http_proxy, https_proxy or all_proxy set, add localhost,127.0.0.1,::1 to no_proxy, or the local connection goes to the proxy.",
	"/ide lists the vault only when Claude Code runs in the vault folder or a subfolder; elsewhere set CLAUDE_CODE_SSE_PORT to the bridge's port.",
	"After rotating the IDE connection token or restarting the bridge, run /ide again in Claude Code.",
];

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** "All good" or the count of problems and warnings, and how many checks passed. */
export function checkSummary(lines: readonly DoctorLine[]): string {
	const count = (level: DoctorLevel) => lines.filter((line) => line.level === level).length;
	const problems = [
		count("fail") > 0 ? plural(count("fail"), "problem") : "",
		count("warn") > 0 ? plural(count("warn"), "warning") : "",
	].filter(Boolean);
	return problems.length === 0 ? `All good: ${plural(count("ok"), "check")} passed.` : `${problems.join(", ")}.`;
}

/**
 * The doctor's findings: the summary first, then problems and warnings (each with its fix and a copy button for
 * the command it names), then the checks that passed, folded, and tips for what the checks cannot see, folded.
 */
export function showCheckResults(container: HTMLElement, lines: readonly DoctorLine[]): void {
	container.empty();
	const allGood = lines.every((line) => line.level === "ok");
	container.createDiv({
		cls: ["claude-code-bridge-doctor-summary", allGood ? "is-ok" : "is-warn"],
		text: checkSummary(lines),
	});
	const order: DoctorLevel[] = ["fail", "warn"];
	for (const level of order) for (const line of lines) if (line.level === level) showLine(container, line);
	const passed = lines.filter((line) => line.level === "ok");
	if (passed.length > 0) {
		const fold = container.createEl("details", { cls: "claude-code-bridge-doctor-passed" });
		fold.createEl("summary", { text: `${plural(passed.length, "check")} passed` });
		for (const line of passed) showLine(fold, line);
	}
	const tips = container.createEl("details", { cls: "claude-code-bridge-doctor-tips" });
	tips.createEl("summary", { text: "If /ide still does not list this vault" });
	const list = tips.createEl("ul");
	for (const tip of TIPS) list.createEl("li", { text: tip });
}

/** One finding: its level, what was found, and the fix below it (muted, as setting descriptions are). */
function showLine(container: HTMLElement, line: DoctorLine): void {
	const row = container.createDiv({ cls: ["claude-code-bridge-doctor-line", `is-${line.level}`] });
	row.createSpan({ cls: "claude-code-bridge-doctor-level", text: LEVEL_LABELS[line.level] });
	row.createSpan({ cls: "claude-code-bridge-doctor-what", text: line.what });
	if (line.fix) row.createDiv({ cls: ["claude-code-bridge-doctor-fix", "setting-item-description"], text: line.fix });
	if (line.command) commandBlock(row, line.command, "Command copied.");
}
