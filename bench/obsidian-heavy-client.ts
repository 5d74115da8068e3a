/**
 * The bench's MCP client for bench/obsidian-heavy.ts, in a process of its own, as Claude Code runs beside Obsidian:
 * its HTTP, its parsing of the answers and its garbage are not the plugin's main thread's. The measuring process
 * asks it over the fork's IPC channel for one tool call at a time (`RemoteClient`); the client process
 * (`obsidianHeavyClient`) makes the call with the MCP SDK's Client over the plugin's HTTP endpoint.
 */
import { fork, type ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { errorStack } from "../src/shared/describe-error";

export const OBSIDIAN_HEAVY_CLIENT_ROLE = "--role=obsidian-heavy-client";

interface ClientArguments {
	url: string;
	token: string;
}

/** A tool's answer as the MCP SDK gives it (its text blocks). */
export interface ToolAnswer {
	content: { text: string }[];
	isError?: boolean;
}

type Request = { id: number; name: string; args: Record<string, unknown> } | { id: number; close: true };
type Reply = { id: number; answer?: ToolAnswer; error?: string };

/** In the client process: connects, then answers each request with the tool's answer, until asked to close. */
export async function obsidianHeavyClient(argument: string): Promise<void> {
	const { url, token } = JSON.parse(argument) as ClientArguments;
	const client = new Client({ name: "obsidian-heavy-bench", version: "1.0.0" });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(url), {
			requestInit: { headers: { Authorization: `Bearer ${token}` } },
		}),
	);
	const reply = (message: Reply): void => void process.send?.(message);
	process.on("message", (request: Request) => {
		if ("close" in request) {
			void client
				.close()
				.finally(() => process.send?.({ id: request.id }, undefined, undefined, () => process.exit(0)));
			return;
		}
		client.callTool({ name: request.name, arguments: request.args }).then(
			(answer) => reply({ id: request.id, answer: answer as ToolAnswer }),
			(error: unknown) => reply({ id: request.id, error: errorStack(error) }),
		);
	});
	reply({ id: 0 });
}

/** The measuring process's handle on the client process. */
export class RemoteClient {
	private next = 1;
	private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

	private constructor(private readonly child: ChildProcess) {
		child.on("message", (reply: Reply) => {
			const waiter = this.waiting.get(reply.id);
			this.waiting.delete(reply.id);
			waiter?.resolve(reply);
		});
		child.once("exit", (code) => {
			for (const waiter of this.waiting.values())
				waiter.reject(new Error(`the bench's MCP client exited with ${code ?? "a signal"}`));
			this.waiting.clear();
		});
	}

	/** Starts the client process (this bench's own bundle in the client's role) and waits until it is connected. */
	static async start(url: string, token: string): Promise<RemoteClient> {
		const argument: ClientArguments = { url, token };
		// Not the measuring process's flags: its CPU profile (`--cpu-prof`) is of the plugin's process alone.
		const child = fork(process.argv[1] ?? "", [OBSIDIAN_HEAVY_CLIENT_ROLE, JSON.stringify(argument)], {
			execArgv: [],
			stdio: ["ignore", "inherit", "inherit", "ipc"],
		});
		const remote = new RemoteClient(child);
		await remote.ask(0);
		return remote;
	}

	private ask(id: number, request?: Request): Promise<Reply> {
		return new Promise<Reply>((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			if (request) this.child.send(request);
		});
	}

	async callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
		const id = this.next++;
		const reply = await this.ask(id, { id, name, args });
		if (reply.error !== undefined || !reply.answer) throw new Error(reply.error ?? `${name}: no answer`);
		return reply.answer;
	}

	async close(): Promise<void> {
		const id = this.next++;
		await this.ask(id, { id, close: true });
	}
}
