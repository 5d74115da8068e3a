/**
 * Images the user sends Claude with a message, as the Messages API takes them: base64 `image` blocks whose media
 * type is read from the bytes' signature, never from a file name (a `photo.png` that holds a JPEG is sent as JPEG,
 * and a file that is no image at all is refused). CLI 2.1.330 passes such a block on, re-encoding or scaling one the
 * API would refuse (measured: a 10.4 MB PNG of noise reached the model as a 0.6 MB JPEG, a 9000×200 PNG as 2000×44), and
 * keeps a copy in its own temporary folder.
 */
import type { ImageMediaType, PromptBlock } from "../agent-session";

/** The largest image the panel sends (the CLI shrinks what the API would refuse; this bounds the message's line). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The most images one message carries. */
export const MAX_IMAGES_PER_MESSAGE = 10;

/** File name endings of the image types Claude reads: what the panel offers to attach from the vault. */
export const IMAGE_EXTENSIONS: readonly string[] = ["png", "jpg", "jpeg", "gif", "webp"];

/** Why an image does not go with the message. */
export type ImageRefusal = "private" | "missing" | "too-large" | "not-image" | "too-many";

/** The media type the bytes' signature names, or undefined when they are not a PNG, JPEG, GIF or WebP image. */
export function imageMediaType(bytes: Uint8Array): ImageMediaType | undefined {
	const starts = (...signature: number[]): boolean => signature.every((byte, index) => bytes[index] === byte);
	if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
	if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
	if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
		return "image/gif";
	if (starts(0x52, 0x49, 0x46, 0x46) && [0x57, 0x45, 0x42, 0x50].every((byte, index) => bytes[8 + index] === byte))
		return "image/webp";
	return undefined;
}

/** Whether a file's name ends like an image Claude reads (the bytes decide when it is sent). */
export function hasImageExtension(name: string): boolean {
	const dot = name.lastIndexOf(".");
	return dot >= 0 && IMAGE_EXTENSIONS.includes(name.slice(dot + 1).toLowerCase());
}

/** The bytes as the block the CLI receives, when they are an image that may be sent. */
export function imageBlock(bytes: Uint8Array): PromptBlock | undefined {
	const mediaType = imageMediaType(bytes);
	if (mediaType === undefined || bytes.byteLength > MAX_IMAGE_BYTES) return undefined;
	return { type: "image", source: { type: "base64", media_type: mediaType, data: base64(bytes) } };
}

/** What is wrong with these bytes as an image to send, or undefined when they may go. */
export function imageBytesRefusal(bytes: Uint8Array): ImageRefusal | undefined {
	if (bytes.byteLength > MAX_IMAGE_BYTES) return "too-large";
	return imageMediaType(bytes) === undefined ? "not-image" : undefined;
}

/** Why an image was not attached or sent, in the user's words. */
export function imageRefusalWords(name: string, refusal: ImageRefusal, size?: number): string {
	const quoted = `“${name}”`;
	switch (refusal) {
		case "private":
			return `${quoted} is in a private place (this plugin's private folders or Obsidian's excluded files), so it is not sent to Claude.`;
		case "missing":
			return `${quoted} could not be read.`;
		case "too-large":
			return `${quoted} is ${size === undefined ? "too large" : `${megabytes(size)} MB`}; images of up to ${megabytes(MAX_IMAGE_BYTES)} MB can be sent.`;
		case "not-image":
			return `${quoted} is not a PNG, JPEG, GIF or WebP image, so Claude cannot read it.`;
		case "too-many":
			return `${quoted} was left out: a message takes up to ${MAX_IMAGES_PER_MESSAGE} images.`;
	}
}

/** Rounded up to a tenth, so a file over the limit never reads as the limit. */
function megabytes(bytes: number): string {
	return (Math.ceil(bytes / ((1024 * 1024) / 10)) / 10).toFixed(1).replace(/\.0$/, "");
}

/** Base64 without Node's Buffer (this module also runs in the panel's view). */
function base64(bytes: Uint8Array): string {
	const chunks: string[] = [];
	for (let start = 0; start < bytes.byteLength; start += 0x8000)
		chunks.push(String.fromCharCode(...bytes.subarray(start, start + 0x8000)));
	return btoa(chunks.join(""));
}
