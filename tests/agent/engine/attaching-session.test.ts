import type {
	AgentEventListener,
	AgentSession,
	MessageAttachment,
	UserMessage,
} from "../../../src/agent/agent-session";
import { AttachingSession } from "../../../src/agent/engine/attaching-session";
import type {
	AttachmentResolver,
	ResolvedAttachment,
	ResolvedImage,
} from "../../../src/agent/engine/attachment-resolver";
import { MAX_IMAGES_PER_MESSAGE } from "../../../src/agent/engine/image-content";
import { JPEG_START, TINY_PNG } from "../../helpers/image-bytes";

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

	it("sends images as image blocks before the words: pasted bytes and vault images the resolver read, the type from the bytes", async () => {
		const inner = new FakeSession();
		const asked: string[] = [];
		const images: AttachmentResolver = {
			...resolver(),
			resolveImage: (path): Promise<ResolvedImage> => {
				asked.push(path);
				return Promise.resolve({ kind: "image", bytes: JPEG_START });
			},
		};
		const session = new AttachingSession(inner, images);
		session.send({
			text: "What is on these?",
			attachments: [],
			images: [
				{ name: "Pasted image", bytes: TINY_PNG },
				// Named .png, holds a JPEG: sent as what the bytes are.
				{ name: "photo.png", path: "Trips/photo.png" },
			],
		});
		await settle();
		expect(asked).toEqual(["Trips/photo.png"]);
		expect(inner.sent).toEqual([
			{
				text: "What is on these?",
				attachments: [],
				// The transcript keeps the names; the bytes went into the prompt.
				images: [{ name: "Pasted image" }, { name: "photo.png", path: "Trips/photo.png" }],
				prompt: [
					{
						type: "image",
						source: {
							type: "base64",
							media_type: "image/png",
							data: Buffer.from(TINY_PNG).toString("base64"),
						},
					},
					{
						type: "image",
						source: {
							type: "base64",
							media_type: "image/jpeg",
							data: Buffer.from(JPEG_START).toString("base64"),
						},
					},
					{ type: "text", text: "What is on these?" },
				],
			},
		]);
	});

	it("leaves out an image the boundary refused, one that is no image, one past the limit, and one whose read failed, and says why", async () => {
		const inner = new FakeSession();
		const session = new AttachingSession(inner, {
			...resolver(),
			resolveImage: (path): Promise<ResolvedImage> =>
				path === "Broken.png"
					? Promise.reject(new Error("disk error"))
					: Promise.resolve({ kind: "refused", refusal: "private" }),
		});
		const many = Array.from({ length: MAX_IMAGES_PER_MESSAGE }, (_, index) => ({
			name: `shot ${index + 1}.png`,
			bytes: TINY_PNG,
		}));
		session.send({
			text: "",
			attachments: [],
			images: [
				{ name: "face.jpg", path: "Private/face.jpg" },
				{ name: "notes.pdf", bytes: Buffer.from("%PDF-1.7") },
				{ name: "broken.png", path: "Broken.png" },
				...many,
			],
		});
		await settle();
		const [sent] = inner.sent;
		// Ten went (the first three were refused, the limit counts what was offered); no text block for no words.
		expect(sent?.images?.map((image) => image.name)).toEqual(
			many.slice(0, MAX_IMAGES_PER_MESSAGE - 3).map((image) => image.name),
		);
		const blocks = typeof sent?.prompt === "string" ? [] : (sent?.prompt ?? []);
		expect(blocks.map((block) => block.type)).toEqual(Array.from({ length: 7 }, () => "image"));
		expect(sent?.notSent).toEqual([
			expect.stringContaining("“face.jpg” is in a private place"),
			"“notes.pdf” is not a PNG, JPEG, GIF or WebP image, so Claude cannot read it.",
			"“broken.png” could not be read.",
			...many
				.slice(MAX_IMAGES_PER_MESSAGE - 3)
				.map(
					(image) => `“${image.name}” was left out: a message takes up to ${MAX_IMAGES_PER_MESSAGE} images.`,
				),
		]);
	});

	it("hands no vault image over when the resolver cannot read images", async () => {
		const inner = new FakeSession();
		const session = new AttachingSession(inner, resolver());
		session.send({ text: "Look", attachments: [], images: [{ name: "a.png", path: "a.png" }] });
		await settle();
		expect(inner.sent).toEqual([
			{ text: "Look", attachments: [], notSent: ["“a.png” could not be read."], prompt: "Look" },
		]);
	});
});
