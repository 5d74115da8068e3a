import type {
	AgentEventListener,
	AgentPermissionMode,
	AgentSession,
	MessageAttachment,
	ToolPermissionAnswer,
	UserMessage,
} from "../agent-session";
import type { AttachmentResolver, ResolvedAttachment } from "./attachment-resolver";
import { promptContent } from "./mention-text";

/**
 * A session whose messages carry what the panel itself read of their attachments: each attachment is resolved
 * through the privacy boundary (`AttachmentResolver`) when the message is sent, and the CLI receives the notes'
 * text, never a mention it would read itself. Messages keep their order while attachments are read; an
 * attachment that may not be handed over is dropped from the message (the panel's transcript shows what went).
 */
export class AttachingSession implements AgentSession {
	private pending: Promise<void> = Promise.resolve();
	private reading = 0;

	constructor(
		private readonly inner: AgentSession,
		private readonly resolver: AttachmentResolver,
	) {}

	get sessionId(): string | undefined {
		return this.inner.sessionId;
	}

	get busy(): boolean {
		return this.inner.busy || this.reading > 0;
	}

	send(message: UserMessage): void {
		if (message.attachments.length === 0 && this.reading === 0) {
			this.inner.send({ text: message.text, attachments: [] });
			return;
		}
		this.reading += 1;
		this.pending = this.pending
			.then(() => this.withAttachments(message))
			.then((ready) => this.inner.send(ready))
			.catch(() => undefined)
			.finally(() => (this.reading -= 1));
	}

	interrupt(): Promise<void> {
		return this.inner.interrupt();
	}

	setPermissionMode(mode: AgentPermissionMode): Promise<void> {
		return this.inner.setPermissionMode(mode);
	}

	setModel(model: string | undefined): Promise<void> {
		return this.inner.setModel(model);
	}

	answerPermission(id: string, answer: ToolPermissionAnswer): void {
		this.inner.answerPermission(id, answer);
	}

	onEvent(listener: AgentEventListener): () => void {
		return this.inner.onEvent(listener);
	}

	async close(): Promise<void> {
		await this.pending;
		await this.inner.close();
	}

	private async withAttachments(message: UserMessage): Promise<UserMessage> {
		const unique = [
			...new Map(message.attachments.map((attachment) => [attachmentKey(attachment), attachment])).values(),
		];
		const read = await Promise.all(unique.map((attachment) => this.read(attachment)));
		const handed = read.filter(
			(entry): entry is { attachment: MessageAttachment; resolved: ResolvedAttachment } =>
				entry.resolved !== undefined,
		);
		return {
			text: message.text,
			attachments: handed.map((entry) => entry.attachment),
			prompt: promptContent(
				message.text,
				handed.map((entry) => entry.resolved),
			),
		};
	}

	/** A resolver that fails hands nothing over: the message goes without that attachment. */
	private async read(
		attachment: MessageAttachment,
	): Promise<{ attachment: MessageAttachment; resolved: ResolvedAttachment | undefined }> {
		try {
			return { attachment, resolved: await this.resolver.resolve(attachment) };
		} catch {
			return { attachment, resolved: undefined };
		}
	}
}

function attachmentKey(attachment: MessageAttachment): string {
	return JSON.stringify([attachment.path, attachment.lines?.from, attachment.lines?.to]);
}
