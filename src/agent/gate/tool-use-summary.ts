import type { ToolUseRequest } from "../agent-session";

const MAX_SUMMARY = 160;

/** One line a user can judge a tool use by: `Bash: npm test`, `WebFetch: https://…`, `server › tool: {…}`. */
export function toolUseSummary(request: ToolUseRequest): string {
	const input = request.input;
	const mcp = /^mcp__(.+?)__(.+)$/.exec(request.toolName);
	const name = mcp ? `${mcp[1] ?? ""} › ${mcp[2] ?? ""}` : request.toolName;
	const detail =
		firstString(input, ["command", "url", "query", "file_path", "path", "pattern", "plan"]) ??
		(Object.keys(input).length > 0 ? JSON.stringify(input) : "");
	return oneLine(detail === "" ? name : `${name}: ${detail}`);
}

function firstString(input: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined {
	for (const key of keys) {
		const value = input[key];
		if (typeof value === "string" && value.trim() !== "") return value;
	}
	return undefined;
}

function oneLine(text: string): string {
	const flat = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
	return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat;
}
