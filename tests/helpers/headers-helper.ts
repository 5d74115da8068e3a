import { spawn } from "node:child_process";
import type { HeadlessProcess } from "./headless-process";
import { WAIT_TIMEOUT_MS } from "./fixture-timeout";

/** Claude Code's configuration of an HTTP MCP server, as far as the headers go. */
export interface HttpServerConfig {
	type: "http";
	url: string;
	headers?: Record<string, string>;
	headersHelper?: string;
}

export interface HelperRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs a `headersHelper` as Claude Code 2.1.330 does: through a shell, with the server's name and URL in its environment. */
export async function runHeadersHelper(command: string, url: string, home: string): Promise<HelperRun> {
	const helper = spawn("/bin/sh", ["-c", command], {
		env: {
			PATH: process.env.PATH ?? "",
			HOME: home,
			CLAUDE_CODE_MCP_SERVER_NAME: "obsidian",
			CLAUDE_CODE_MCP_SERVER_URL: url,
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	helper.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
	helper.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
	const code = await new Promise<number | null>((resolve) => helper.once("close", resolve));
	return { code, stdout, stderr };
}

/**
 * The headers Claude Code sends on a new connection with this configuration (observed with 2.1.330): the static
 * `headers`, merged with the JSON object its `headersHelper` prints; a helper that fails adds nothing, and the CLI
 * connects without it.
 */
export async function connectHeaders(config: HttpServerConfig, home: string): Promise<Record<string, string>> {
	const headers = { ...config.headers };
	if (config.headersHelper === undefined) return headers;
	const run = await runHeadersHelper(config.headersHelper, config.url, home);
	if (run.code !== 0) return headers;
	return { ...headers, ...(JSON.parse(run.stdout) as Record<string, string>) };
}

/** What Claude Code saves for the vault tools over HTTP: the headless host's `mcp-config http` entry. */
export async function savedHttpConfig(host: HeadlessProcess): Promise<HttpServerConfig> {
	const before = host.stdout.length;
	host.send("mcp-config http");
	const line = await host.waitFor(
		() => /^(\{"mcpServers".*\})$/m.exec(host.stdout.slice(before))?.[1],
		"the mcp-config http line",
		WAIT_TIMEOUT_MS,
	);
	const entry = (JSON.parse(line) as { mcpServers: Record<string, HttpServerConfig | undefined> }).mcpServers[
		"obsidian"
	];
	if (!entry) throw new Error(`no obsidian entry in ${line}`);
	return entry;
}
