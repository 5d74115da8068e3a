import { createServer, type Server } from "node:http";
import { WebSocketServer } from "ws";
import { probeConnection } from "../../../src/ide/doctor/probe-connection";
import { startBridge } from "../../helpers/bridge-fixture";

function listen(server: Server): Promise<number> {
	return new Promise((resolve) => {
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			resolve(typeof address === "object" && address ? address.port : 0);
		});
	});
}

describe("the connection probe", () => {
	it("is accepted by the bridge with the right token and refused (401) with another", async () => {
		const bridge = await startBridge();
		try {
			expect(await probeConnection(bridge.port, bridge.token)).toEqual({ kind: "accepted" });
			expect(await probeConnection(bridge.port, "0".repeat(64))).toEqual({ kind: "refused", status: 401 });
		} finally {
			await bridge.stop();
		}
	});

	it("tells a server that does not select the mcp subprotocol from one that answers plain HTTP", async () => {
		const server = createServer();
		const sockets = new WebSocketServer({ server, handleProtocols: () => false });
		const port = await listen(server);
		try {
			expect(await probeConnection(port, "token")).toEqual({ kind: "no-subprotocol" });
		} finally {
			sockets.close();
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}

		const plain = createServer();
		plain.on("upgrade", (_request, socket) =>
			socket.end("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
		);
		const plainPort = await listen(plain);
		try {
			expect(await probeConnection(plainPort, "token")).toEqual({ kind: "refused", status: 503 });
		} finally {
			plain.closeAllConnections();
			await new Promise((resolve) => plain.close(resolve));
		}
	});
});
