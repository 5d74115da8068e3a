import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	ADD_SCOPE,
	ALLOWED_TOOLS_RULE,
	SERVER_NAME,
	addArguments,
	connectVaultTools,
	headersHelperCommand,
	parseMcpGet,
	removeVaultTools,
	serverEntry,
	stdioTerminalCommand,
	terminalCommand,
	type ClaudeRun,
	type HttpServerEntry,
} from "../../../src/vault-tools/serve/claude-mcp-add";
import { headersFileName } from "../../../src/vault-tools/serve/http-token-record";
import { makeTempDir } from "../../helpers/temp-dir";

const WINDOWS_VAULT = "C:\\Users\\Jo Smith\\Notes (2024)\\It's mine";

/** How a Windows program built with the Microsoft C runtime (and CommandLineToArgvW) splits its command line. */
function windowsArgv(line: string): string[] {
	const args: string[] = [];
	let current = "";
	let inQuotes = false;
	let started = false;
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (c === "\\") {
			let slashes = 0;
			while (line[i] === "\\") {
				slashes++;
				i++;
			}
			if (line[i] === '"') {
				current += "\\".repeat(Math.floor(slashes / 2));
				if (slashes % 2 === 1) current += '"';
				else {
					inQuotes = !inQuotes;
				}
			} else {
				current += "\\".repeat(slashes);
				i--;
			}
			started = true;
		} else if (c === '"') {
			inQuotes = !inQuotes;
			started = true;
		} else if ((c === " " || c === "\t") && !inQuotes) {
			if (started) args.push(current);
			current = "";
			started = false;
		} else {
			current += c;
			started = true;
		}
	}
	if (started) args.push(current);
	return args;
}

/**
 * What an interactive cmd.exe does before running the line: `%VAR%` of a set variable expanded, quotes or not, and
 * `%VAR:old=new%` expanded with every `old` replaced by `new`.
 */
function cmdExpand(line: string, env: Record<string, string>): string {
	return line.replace(/%([^%:]+)(?::([^=%]*)=([^%]*))?%/g, (whole, name: string, from?: string, to?: string) => {
		const value = env[name];
		if (value === undefined) return whole;
		return from === undefined ? value : value.split(from).join(to ?? "");
	});
}

/** The characters cmd.exe acts on outside its own quotes (which open and close at every `"`). */
function cmdOperatorsOutsideQuotes(line: string): string[] {
	const found: string[] = [];
	let inQuotes = false;
	for (const c of line) {
		if (c === '"') inQuotes = !inQuotes;
		else if (!inQuotes && /[&|<>^()]/.test(c)) found.push(c);
	}
	return found;
}

/** A PowerShell single-quoted string literal's value. */
function powershellLiteral(text: string): { value: string; rest: string } {
	expect(text.startsWith("'")).toBe(true);
	let value = "";
	for (let i = 1; i < text.length; i++) {
		if (text[i] === "'" && text[i + 1] === "'") {
			value += "'";
			i++;
		} else if (text[i] === "'") return { value, rest: text.slice(i + 1) };
		else value += text[i];
	}
	throw new Error(`unterminated literal in ${text}`);
}

describe("the one way to add the vault tools to Claude Code", () => {
	it("is one name and one scope, with one permission rule", () => {
		expect([SERVER_NAME, ADD_SCOPE, ALLOWED_TOOLS_RULE]).toEqual(["obsidian", "local", "mcp__obsidian"]);
	});

	it("is the HTTP endpoint with a helper that prints the headers file: cat on macOS and Linux, type on Windows", () => {
		const file = headersFileName(24518, "/home/me/notes");
		expect(file).toMatch(/^24518-[0-9a-f]{16}\.headers\.json$/);
		expect(headersHelperCommand(24518, "/home/me/notes", "darwin")).toBe(
			`cat "$HOME/.claude-code-bridge/mcp-tokens/${file}"`,
		);
		expect(headersHelperCommand(24518, "/home/me/notes", "win32")).toBe(
			`type "%USERPROFILE%\\.claude-code-bridge\\mcp-tokens\\${file}"`,
		);
		// Two vaults given the same port never share a file.
		expect(headersFileName(24518, "/home/me/other")).not.toBe(file);
		const entry = serverEntry(24518, "/no/such/folder", "linux");
		expect(entry.url).toBe("http://127.0.0.1:24518/mcp");
		expect(JSON.stringify(entry)).toMatch(/^[\x20-\x7e]+$/);
		expect(addArguments(entry)).toEqual(["mcp", "add-json", "--scope", "local", "obsidian", JSON.stringify(entry)]);
	});

	it("the POSIX helper prints the file in /bin/sh, wherever HOME is", () => {
		const home = makeTempDir("helper-home");
		try {
			const homeDir = join(home.path, "Jo's home $x");
			mkdirSync(join(homeDir, ".claude-code-bridge", "mcp-tokens"), { recursive: true });
			writeFileSync(join(homeDir, ".claude-code-bridge", "mcp-tokens", headersFileName(4100, "/v")), "{}");
			const out = execFileSync("/bin/sh", ["-c", headersHelperCommand(4100, "/v", "linux")], {
				env: { HOME: homeDir, PATH: "/usr/bin:/bin" },
				encoding: "utf8",
			});
			expect(out).toBe("{}");
		} finally {
			home.remove();
		}
	});

	// tests/headless/mcp-config.test.ts runs the POSIX line in a shell, with a stand-in claude that records its arguments.
	it('POSIX: cd into the vault with double quotes ($, `, \\ and " escaped), the JSON in single quotes', () => {
		const entry: HttpServerEntry = {
			type: "http",
			url: "http://127.0.0.1:1/mcp",
			headersHelper: `cat "$HOME/it's"`,
		};
		expect(terminalCommand(entry, '/Notes/My "$HOME" vault', "posix")).toBe(
			`cd "/Notes/My \\"\\$HOME\\" vault" && claude mcp add-json --scope local obsidian '{"type":"http","url":"http://127.0.0.1:1/mcp","headersHelper":"cat \\"$HOME/it'\\''s\\""}'`,
		);
	});

	it("PowerShell: literal single-quoted strings, the JSON through stdin (5.1 drops quotes in native arguments)", () => {
		const entry = serverEntry(24518, WINDOWS_VAULT, "win32");
		const line = terminalCommand(entry, WINDOWS_VAULT, "powershell") ?? "";
		expect(line.startsWith("Set-Location -LiteralPath ")).toBe(true);
		const vault = powershellLiteral(line.slice("Set-Location -LiteralPath ".length));
		expect(vault.value).toBe(WINDOWS_VAULT);
		expect(vault.rest.startsWith("; ")).toBe(true);
		const json = powershellLiteral(vault.rest.slice(2));
		expect(JSON.parse(json.value)).toEqual(entry);
		expect(json.rest).toBe(" | claude mcp add-json --scope local obsidian -");
		// No `$` or backtick in the JSON that a double-quoted string would expand; single quotes expand nothing anyway.
		expect(json.value).not.toMatch(/[`$]/);
		// Typographic quotes count as quotes for PowerShell: doubled too.
		expect(terminalCommand(entry, "C:\\It\u2019s", "powershell")).toContain("'C:\\It\u2019\u2019s'");
	});

	it("cmd.exe: cd /d, the JSON's quotes as \\\" for the program; %USERPROFILE% becomes the user's folder, still one argument", () => {
		const entry = serverEntry(24518, WINDOWS_VAULT, "win32");
		const line = terminalCommand(entry, WINDOWS_VAULT, "cmd") ?? "";
		const expanded = cmdExpand(line, { USERPROFILE: "C:\\Users\\Jo Smith" });
		expect(cmdOperatorsOutsideQuotes(expanded)).toEqual(["&", "&"]);
		const [cd, add] = expanded.split(" && ");
		expect(cd).toBe(`cd /d "${WINDOWS_VAULT}"`);
		const argv = windowsArgv(add ?? "");
		expect(argv.slice(0, 5)).toEqual(["claude", "mcp", "add-json", "--scope", "local"]);
		expect(argv).toHaveLength(7);
		expect(JSON.parse(argv[6] ?? "")).toEqual({
			...entry,
			headersHelper: entry.headersHelper.replace("%USERPROFILE%", "C:\\Users\\Jo Smith"),
		});
	});

	it("cmd.exe: a vault path cmd.exe would act on inside quotes gets no line (the button and PowerShell still work)", () => {
		const entry = serverEntry(24518, "C:\\100% notes", "win32");
		expect(terminalCommand(entry, "C:\\100% notes", "cmd")).toBeUndefined();
		expect(terminalCommand(entry, 'C:\\a"b', "cmd")).toBeUndefined();
		expect(terminalCommand(entry, "C:\\Wow!", "cmd")).toBeUndefined();
		expect(terminalCommand(entry, "C:\\100% notes", "powershell")).toContain("'C:\\100% notes'");
	});

	it("the developers' stdio line: the package's command under the same name and scope", () => {
		expect(
			stdioTerminalCommand(["claude-code-bridge"], ["mcp", "--vault", "/My vault"], "/My vault", "posix"),
		).toBe('cd "/My vault" && claude mcp add --scope local obsidian -- claude-code-bridge mcp --vault "/My vault"');
		expect(stdioTerminalCommand(["node"], ["C:\\It's\\cli.cjs"], "C:\\v", "powershell")).toBe(
			"Set-Location -LiteralPath 'C:\\v'; claude mcp add --scope local obsidian -- node 'C:\\It''s\\cli.cjs'",
		);
	});
});

const URL = "http://127.0.0.1:24518/mcp";
const run = (stdout: string, stderr = "", exitCode = 0): ClaudeRun => ({ exitCode, stdout, stderr });

/** CLI 2.1.330's answers, as seen in a temp HOME. */
const GET_CONNECTED = `obsidian:
  Scope: Local config (private to you in this project)
  Status: ✔ Connected
  Type: http
  URL: ${URL}

To remove this server, run: claude mcp remove obsidian -s local
`;
const GET_UNTRUSTED = `obsidian:
  Scope: Local config (private to you in this project)
  Status: ✘ Failed to connect
  Issue: Dynamic Client Registration rejected (HTTP 401): no
  Type: http
  URL: ${URL}
`;
const UNTRUSTED_STDERR = `MCP server 'obsidian': headersHelper not run — this workspace has no persisted trust; accept the trust dialog here once interactively, or set projects["/v"].hasTrustDialogAccepted in /h/.claude.json.`;
const GET_ABSENT = run("", 'No MCP server named "obsidian". Run `claude mcp add` to add one.', 1);

describe("reading claude mcp get", () => {
	it("tells connected, not trusted yet, absent, someone else's entry and a CLI that cannot run apart", () => {
		expect(parseMcpGet(run(GET_CONNECTED), URL)).toMatchObject({ kind: "present", ours: true, connected: true });
		expect(parseMcpGet(run(GET_UNTRUSTED, UNTRUSTED_STDERR), URL)).toMatchObject({
			kind: "present",
			ours: true,
			connected: false,
			trustMissing: true,
		});
		expect(parseMcpGet(GET_ABSENT, URL)).toEqual({ kind: "absent" });
		expect(parseMcpGet(run(GET_CONNECTED.replace("Local config", "User config")), URL)).toMatchObject({
			ours: false,
		});
		expect(parseMcpGet(run(GET_CONNECTED), "http://127.0.0.1:1/mcp")).toMatchObject({ ours: false });
		expect(parseMcpGet({ ...run(""), failure: "Claude Code was not found." }, URL)).toEqual({
			kind: "unknown",
			message: "Claude Code was not found.",
		});
	});
});

describe("Connect and Remove", () => {
	/** A stand-in Claude Code that keeps one local entry, as CLI 2.1.330 answers. */
	function fakeClaude(initial?: string): { calls: string[][]; run: (args: readonly string[]) => Promise<ClaudeRun> } {
		let url = initial;
		const calls: string[][] = [];
		return {
			calls,
			run: (args) => {
				calls.push([...args]);
				const [, verb] = args;
				if (verb === "get")
					return Promise.resolve(url === undefined ? GET_ABSENT : run(GET_CONNECTED.replace(URL, url)));
				if (verb === "remove") {
					const had = url !== undefined;
					url = undefined;
					return Promise.resolve(had ? run("Removed") : run("", "No MCP server", 1));
				}
				if (url !== undefined)
					return Promise.resolve(run("", "MCP server obsidian already exists in local config", 1));
				url = (JSON.parse(args[5] ?? "{}") as { url: string }).url;
				return Promise.resolve(run("Added http MCP server obsidian to local config"));
			},
		};
	}
	const entry: HttpServerEntry = { type: "http", url: URL, headersHelper: "cat x" };

	it("adds, then a second run says it was there and leaves the same entry", async () => {
		const claude = fakeClaude();
		expect(await connectVaultTools(claude.run, entry)).toMatchObject({
			change: "added",
			state: { connected: true },
		});
		expect(await connectVaultTools(claude.run, entry)).toMatchObject({ change: "already", state: { ours: true } });
		expect(claude.calls.map((args) => args[1])).toEqual([
			"get",
			"add-json",
			"get",
			"get",
			"remove",
			"add-json",
			"get",
		]);
	});

	it("replaces an older local entry (the stdio server of a clone, another port)", async () => {
		const claude = fakeClaude("http://127.0.0.1:1/mcp");
		expect(await connectVaultTools(claude.run, entry)).toMatchObject({ change: "updated", state: { ours: true } });
	});

	it("says why when Claude Code cannot be run, and removes only the local entry", async () => {
		const missing = (): Promise<ClaudeRun> =>
			Promise.resolve({ exitCode: null, stdout: "", stderr: "", failure: "Claude Code was not found." });
		expect(await connectVaultTools(missing, entry)).toMatchObject({
			change: "failed",
			message: "Claude Code was not found.",
		});
		const claude = fakeClaude(URL);
		expect(await removeVaultTools(claude.run, URL)).toEqual({ kind: "absent" });
		expect(claude.calls[0]).toEqual(["mcp", "remove", "obsidian", "--scope", "local"]);
	});
});
