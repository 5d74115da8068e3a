import {
	CLAUDE_VERSION_RANGE,
	judgeClaudeVersion,
	parseClaudeVersion,
} from "../../../src/agent/claude-cli/claude-version";

describe("parseClaudeVersion", () => {
	test.each([
		["2.1.330 (Claude Code)\n", "2.1.330"],
		["Claude Code v2.1.2 (native)", "2.1.2"],
		["Welcome back!\r\n1.0.128 (Claude Code)\r\n", "1.0.128"],
		["  10.20.300", "10.20.300"],
	])("%j → %s", (output, text) => {
		expect(parseClaudeVersion(output)?.text).toBe(text);
	});

	test.each(["", "claude: command not found", "version 2.1", "build 1.2.3.4"])("%j holds no version", (output) => {
		expect(parseClaudeVersion(output)).toBeUndefined();
	});
});

describe("judgeClaudeVersion", () => {
	const judge = (text: string): string => {
		const version = parseClaudeVersion(text);
		if (!version) throw new Error(`not a version: ${text}`);
		return judgeClaudeVersion(version);
	};

	test("the minimum is the pinned CLI the end-to-end tests drive", () => {
		expect(CLAUDE_VERSION_RANGE.minimum).toBe("2.1.330");
	});

	test.each([
		["2.1.330", "supported"],
		["2.1.331", "supported"],
		["2.1.1000", "supported"],
		["2.1.329", "too-old"],
		["2.0.999", "too-old"],
		["1.0.128", "too-old"],
		["2.2.0", "untested-newer"],
		["3.0.0", "untested-newer"],
	])("%s is %s", (text, verdict) => {
		expect(judge(text)).toBe(verdict);
	});
});
