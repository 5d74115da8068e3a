import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { DIST_DIR } from "../../helpers/built-dist";

export const CLI_ENTRY = join(DIST_DIR, "cli.cjs");

export interface ToolAnswer {
	text: string;
	isError: boolean;
	structuredContent?: unknown;
}

export interface StdioServer {
	client: Client;
	/** Everything the server wrote to stderr so far. */
	stderr(): string;
	call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
	close(): Promise<void>;
}

/** `node dist/cli.cjs mcp --vault <vault>` as Claude Code runs it, reached by the MCP SDK's Client over stdio. */
export async function startStdioServer(
	vault: string,
	home: string,
	extraArgs: string[] = [],
	extraEnv: Record<string, string> = {},
): Promise<StdioServer> {
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [CLI_ENTRY, "mcp", "--vault", vault, ...extraArgs],
		env: { PATH: process.env.PATH ?? "", ...extraEnv, HOME: home },
		stderr: "pipe",
	});
	let stderr = "";
	(transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
	const client = new Client({ name: "stdio-test", version: "1.0.0" });
	await client.connect(transport);
	return {
		client,
		stderr: () => stderr,
		async call(name, args = {}) {
			const result = (await client.callTool({ name, arguments: args })) as {
				content: { text: string }[];
				isError?: boolean;
				structuredContent?: unknown;
			};
			return {
				text: result.content.map((block) => block.text).join("\n"),
				isError: result.isError === true,
				structuredContent: result.structuredContent,
			};
		},
		close: () => client.close(),
	};
}
