/**
 * The Claude Code versions the agent panel runs with.
 *
 * The minimum is the pinned CLI every end-to-end test drives (scripts/install-claude-cli.mjs). The engine speaks
 * the CLI's stream-json control protocol (`initialize`, `can_use_tool`, `mcp_message` for the in-process vault
 * tools, `interrupt`, `set_permission_mode`, `set_model`). That protocol is what Anthropic's Agent SDK speaks to
 * the CLI, versioned only by the SDK release that bundles each CLI; it is not a documented, stable interface, and
 * older CLIs are known to exit on options they do not know (the SDK's `mcpServersDelivery` needs 2.1.261 or later).
 * So the floor is the version actually tested, not an older one that might work.
 *
 * Claude Code ships many patch releases within one minor line (2.1.x), and the Agent SDK of the same line drives
 * all of them; a newer patch of the tested line is supported. A new minor or major line is untested: the panel
 * warns and still runs it.
 */
export const CLAUDE_VERSION_RANGE = { minimum: "2.1.330", testedLine: "2.1" } as const;

export interface ClaudeVersion {
	major: number;
	minor: number;
	patch: number;
	text: string;
}

export type VersionVerdict = "supported" | "too-old" | "untested-newer";

/** The version in `claude --version` output (`2.1.330 (Claude Code)`), from its first line that has one. */
export function parseClaudeVersion(output: string): ClaudeVersion | undefined {
	for (const line of output.split(/\r?\n/)) {
		const match = /(?:^|[^\d.])v?(\d+)\.(\d+)\.(\d+)(?![\d.])/.exec(` ${line}`);
		if (match)
			return {
				major: Number(match[1]),
				minor: Number(match[2]),
				patch: Number(match[3]),
				text: `${match[1]}.${match[2]}.${match[3]}`,
			};
	}
	return undefined;
}

export function judgeClaudeVersion(version: ClaudeVersion): VersionVerdict {
	const minimum = parseClaudeVersion(CLAUDE_VERSION_RANGE.minimum);
	const [lineMajor, lineMinor] = CLAUDE_VERSION_RANGE.testedLine.split(".").map(Number);
	if (!minimum) throw new Error("CLAUDE_VERSION_RANGE.minimum is not a version");
	if (compare(version, minimum) < 0) return "too-old";
	return version.major === lineMajor && version.minor === lineMinor ? "supported" : "untested-newer";
}

function compare(left: ClaudeVersion, right: ClaudeVersion): number {
	return left.major - right.major || left.minor - right.minor || left.patch - right.patch;
}
