import type { AgentEvent } from "../../../src/agent/agent-session";
import { NO_ENGINE_MESSAGE, createAgentEngine } from "../../../src/obsidian/agent/agent-engine-runtime";

async function firstEvents(vaultPath: string | undefined): Promise<AgentEvent[]> {
	const engine = createAgentEngine({ vaultPath, cliPath: () => "" });
	const session = engine.start({ permissionMode: "default" });
	const events: AgentEvent[] = [];
	session.onEvent((event) => events.push(event));
	await Promise.resolve();
	session.send({ text: "hello", attachments: [] });
	expect(session.busy).toBe(false);
	expect(await engine.pastSessions()).toEqual([]);
	return events;
}

describe("createAgentEngine (the module the panel loads on first open)", () => {
	it("says in the panel that this build has no engine, instead of failing silently", async () => {
		expect(await firstEvents("/vault")).toEqual([{ kind: "failed", message: NO_ENGINE_MESSAGE }]);
	});

	it("says a vault outside the file system cannot run Claude Code", async () => {
		expect(await firstEvents(undefined)).toEqual([{ kind: "failed", message: "The Claude Code panel needs a vault on the local file system." }]);
	});
});
