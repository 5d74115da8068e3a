import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type WebSocket from "ws";
import { rawDataToText } from "../../src/server/connection-manager";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const NOTE = "# Big\n" + 'A line with "quotes", a \\ backslash, a tab\t, é and 😀.\r\n'.repeat(4000);

/** The next message on the socket and whether it came as a binary frame. */
function nextFrame(client: TestClient): Promise<{ text: string; isBinary: boolean }> {
	return new Promise((resolve) =>
		client.ws.once("message", (data: WebSocket.RawData, isBinary: boolean) =>
			resolve({ text: rawDataToText(data), isBinary }),
		),
	);
}

describe("answers encoded straight from a file's bytes (files/read, resources/read)", () => {
	let fixture: AssembledBridge;
	let client: TestClient;

	beforeAll(async () => {
		fixture = await startAssembledBridge({ populate: (vault) => writeFileSync(join(vault, "Big.md"), NOTE) });
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);
	afterAll(async () => fixture?.stop());

	it("files/read arrives as one text frame holding the note's exact text", async () => {
		const frame = nextFrame(client);
		client.send({ jsonrpc: "2.0", id: "big", method: "files/read", params: { path: "Big.md" } });
		const { text, isBinary } = await frame;
		expect(isBinary).toBe(false);
		expect(JSON.parse(text)).toEqual({
			jsonrpc: "2.0",
			id: "big",
			result: {
				path: "Big.md",
				filePath: join(fixture.vaultPath, "Big.md"),
				size: Buffer.byteLength(NOTE),
				text: NOTE,
			},
		});
	});

	it("resources/read of a note arrives as a text frame with the note's text", async () => {
		const uri = pathToFileURL(join(fixture.vaultPath, "Big.md")).href;
		const frame = nextFrame(client);
		client.send({ jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri } });
		const { text, isBinary } = await frame;
		expect(isBinary).toBe(false);
		expect(JSON.parse(text)).toEqual({
			jsonrpc: "2.0",
			id: 7,
			result: { contents: [{ uri, mimeType: "text/markdown", text: NOTE }] },
		});
	});
});
