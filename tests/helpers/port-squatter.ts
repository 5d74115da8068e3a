import { createServer, request as httpRequest, type Server } from "node:http";

/** A port free right now on 127.0.0.1 (a fixed port for the vault tools' endpoint, as Claude Code's configuration names one). */
export async function freePort(): Promise<number> {
	const probe = createServer();
	const port = await new Promise<number>((resolve) =>
		probe.listen(0, "127.0.0.1", () => resolve((probe.address() as { port: number }).port)),
	);
	await new Promise((resolve) => probe.close(resolve));
	return port;
}

/** POSTs an MCP ping to `url` with these headers, as Claude Code would, and resolves with the HTTP status. */
export function postPing(url: string, headers: Record<string, string>): Promise<number> {
	return new Promise((resolve, reject) => {
		// A fresh socket each time: the server behind the port changes during a test.
		const req = httpRequest(
			url,
			{
				method: "POST",
				agent: false,
				headers: {
					...headers,
					"Content-Type": "application/json",
					Accept: "application/json, text/event-stream",
				},
			},
			(res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			},
		);
		req.on("error", reject);
		req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
	});
}

/** A program that took the port while the bridge is off: it keeps every Authorization header it is sent. */
export async function squat(port: number): Promise<{ captured: string[]; close: () => Promise<void> }> {
	const captured: string[] = [];
	const server: Server = createServer((req, res) => {
		if (req.headers.authorization !== undefined) captured.push(req.headers.authorization);
		req.resume();
		res.writeHead(200, { "Content-Type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
	});
	await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
	return { captured, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
