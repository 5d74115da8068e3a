import type {
	AgentEventListener,
	AgentPermissionMode,
	AgentSession,
	MessageAttachment,
	MessageImage,
	PromptBlock,
	ToolPermissionAnswer,
	UserMessage,
} from "../agent-session";
import type { AttachmentResolver, ResolvedAttachment, ResolvedImage } from "./attachment-resolver";
import { imageBlock, imageBytesRefusal, imageRefusalWords, MAX_IMAGES_PER_MESSAGE } from "./image-content";
import { promptContent } from "./mention-text";

/**
 * A session whose messages carry what the panel itself read of their attachments: each attachment is resolved
 * through the privacy boundary (`AttachmentResolver`) when the message is sent, and the CLI receives the notes'
 * text, never a mention it would read itself. Messages keep their order while attachments are read; an
 * attachment that may not be handed over is dropped from the message (the panel's transcript shows what went).
 * Images go as `image` blocks: a vault image is read through the same boundary, pasted bytes are checked the same
 * way (an image type by its signature, the size limit); one that may not go is named in `notSent` with the reason.
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
		if (message.attachments.length === 0 && (message.images ?? []).length === 0 && this.reading === 0) {
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
		const [read, images] = await Promise.all([
			Promise.all(unique.map((attachment) => this.read(attachment))),
			Promise.all((message.images ?? []).map((image, index) => this.readImage(image, index))),
		]);
		const handed = read.filter(
			(entry): entry is { attachment: MessageAttachment; resolved: ResolvedAttachment } =>
				entry.resolved !== undefined,
		);
		const sent = images.flatMap((entry) => ("block" in entry ? [entry] : []));
		const notSent = images.flatMap((entry) => ("refused" in entry ? [entry.refused] : []));
		return {
			text: message.text,
			attachments: handed.map((entry) => entry.attachment),
			// The bytes went into the prompt; the transcript keeps the names.
			...(sent.length > 0 && {
				images: sent.map(({ image }) => ({
					name: image.name,
					...(image.path !== undefined && { path: image.path }),
				})),
			}),
			...(notSent.length > 0 && { notSent }),
			prompt: promptContent(
				message.text,
				handed.map((entry) => entry.resolved),
				sent.map((entry) => entry.block),
			),
		};
	}

	/** An image as the block the CLI receives, or why it does not go, in the user's words. */
	private async readImage(
		image: MessageImage,
		index: number,
	): Promise<{ image: MessageImage; block: PromptBlock } | { refused: string }> {
		if (index >= MAX_IMAGES_PER_MESSAGE) return { refused: imageRefusalWords(image.name, "too-many") };
		const read = await this.imageBytes(image);
		if (read.kind === "refused") return { refused: imageRefusalWords(image.name, read.refusal, read.size) };
		const block = imageBlock(read.bytes);
		return block ? { image, block } : { refused: imageRefusalWords(image.name, "not-image") };
	}

	/** A vault image through the resolver (one that fails reads nothing); pasted bytes as they are, checked. */
	private async imageBytes(image: MessageImage): Promise<ResolvedImage> {
		const missing: ResolvedImage = { kind: "refused", refusal: "missing" };
		if (image.path !== undefined) {
			if (!this.resolver.resolveImage) return missing;
			try {
				return await this.resolver.resolveImage(image.path);
			} catch {
				return missing;
			}
		}
		if (image.bytes === undefined) return missing;
		const refusal = imageBytesRefusal(image.bytes);
		return refusal === undefined
			? { kind: "image", bytes: image.bytes }
			: { kind: "refused", refusal, size: image.bytes.byteLength };
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
