import { deflateSync } from "node:zlib";

/** Real image files, small enough to make in a test (the CLI decodes what it is sent, so the e2e tests need real ones). */

/** A 2×2 grey PNG. */
export const TINY_PNG = Uint8Array.from(
	Buffer.from(
		"iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAADklEQVR4AWM4AQYMEAoAQa4JYVDmfnAAAAAASUVORK5CYII=",
		"base64",
	),
);

/** The start of a JPEG (its signature and a JFIF header): enough for the signature check. */
export const JPEG_START = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);

/** A PNG of one colour: signature, IHDR (8-bit RGB), IDAT, IEND. */
export function solidPng(width: number, height: number, [red, green, blue]: [number, number, number]): Uint8Array {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8;
	header[9] = 2;
	const row = Buffer.from([0, ...Array.from({ length: width }, () => [red, green, blue]).flat()]);
	const pixels = Buffer.concat(Array.from({ length: height }, () => row));
	return Uint8Array.from(
		Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			chunk("IHDR", header),
			chunk("IDAT", deflateSync(pixels)),
			chunk("IEND", Buffer.alloc(0)),
		]),
	);
}

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
	let crc = ~0;
	for (const byte of bytes) {
		crc ^= byte;
		for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
	}
	return ~crc >>> 0;
}
