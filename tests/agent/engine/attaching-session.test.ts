import type {
	AgentEventListener,
	AgentSession,
	MessageAttachment,
	UserMessage,
} from "../../../src/agent/agent-session";
import { AttachingSession } from "../../../src/agent/engine/attaching-session";
import type { AttachmentResolver, ResolvedAttachment } from "../../../src/agent/engine/attachment-resolver";

class FakeSession implements AgentSession {
	readonly sent: UserMessage[] = [];
	readonly sessionId = "s1";
	busy = false;
	closed = false;
	send(message: UserMessage): void {
		this.sent.push(message);
	}
	interrupt(): Promise<void> {
		return Promise.resolve();
	}
	setPermissionMode(): Promise<void> {
		return Promise.resolve();
	}
	setModel(): Promise<void> {
		return Promise.resolve();
	}
	answerPermission(): void {
		// Not asked here.
	}
	onEvent(listener: AgentEventListener): () => void {
		listener({ kind: "closed" });
		return () => undefined;
	}
	close(): Promise<void> {
		this.closed = true;
		return Promise.resolve();
	}
}

/** Resolves `Notes/*` as notes, `Secret/*` as not attachable, and throws for `Broken.md`; `slow` ones wait for `release`. */
function resolver(slow = new Set<string>()): AttachmentResolver & { release: () => void; asked: MessageAttachment[] } {
	let release: () => void = () => undefined;
	const gate = new Promise<void>((resolve) => (release = resolve));
	const asked: MessageAttachment[] = [];
	return {
		asked,
		release: () => release(),
		async resolve(attachment): Promise<ResolvedAttachment | undefined> {
			asked.push(attachment);
			if (slow.has(attachment.path)) await gate;
			if (attachment.path === "Broken.md") throw new Error("disk error");
			if (attachment.path.startsWith("Secret/")) return undefined;
			return { kind: "note", path: attachment.path, text: `text of ${attachment.path}` };
		},
	};
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("AttachingSession", () => {
	it("hands the CLI what the resolver read, drops what it refused or failed on, and asks once per attachment", async () => {
		const inner = new FakeSession();
		const notes = resolver();
		const session = new AttachingSession(inner, notes);
		session.send({
			text: "Compare",
			attachments: [
				{ path: "Notes/A.md" },
				{ path: "Secret/Plan.md" },
				{ path: "Broken.md" },
				{ path: "Notes/A.md" },
			],
		});
		await settle();
		expect(notes.asked).toEqual([{ path: "Notes/A.md" }, { path: "Secret/Plan.md" }, { path: "Broken.md" }]);
		expect(inner.sent).toEqual([
			{
				text: "Compare",
				attachments: [{ path: "Notes/A.md" }],
				prompt: [
					{ type: "text", text: "Compare" },
					{
						type: "document",
						title: "Notes/A.md",
						context: expect.stringContaining("Notes/A.md") as unknown,
						source: { type: "text", media_type: "text/plain", data: "text of Notes/A.md" },
					},
				],
			},
		]);
		expect(JSON.stringify(inner.sent)).not.toContain("Secret");
	});

	it("keeps the order of messages while a note is read, and counts as busy meanwhile", async () => {
		const inner = new FakeSession();
		const notes = resolver(new Set(["Notes/Slow.md"]));
		const session = new AttachingSession(inner, notes);
		session.send({ text: "first", attachments: [{ path: "Notes/Slow.md" }] });
		session.send({ text: "second", attachments: [] });
		await settle();
		expect(inner.sent).toEqual([]);
		expect(session.busy).toBe(true);
		notes.release();
		await settle();
		expect(inner.sent.map((message) => message.text)).toEqual(["first", "second"]);
		expect(session.busy).toBe(false);
	});

	it("sends a message without attachments at once, as typed, and passes everything else through", async () => {
		const inner = new FakeSession();
		const session = new AttachingSession(inner, resolver());
		session.send({ text: "Hello @Secret/Plan.md", attachments: [] });
		expect(inner.sent).toEqual([{ text: "Hello @Secret/Plan.md", attachments: [] }]);
		const seen: string[] = [];
		session.onEvent((event) => seen.push(event.kind));
		expect(seen).toEqual(["closed"]);
		expect(session.sessionId).toBe("s1");
		await session.close();
		expect(inner.closed).toBe(true);
	});
});
