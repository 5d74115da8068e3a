import { ConnectionManager } from "../../src/server/connection-manager";
import { LOOPBACK_HOST } from "../../src/server/limits";

describe("ConnectionManager binding", () => {
	it("listens on 127.0.0.1 only, on a random free port, and frees it on stop", async () => {
		const manager = new ConnectionManager({
			getToken: () => "t",
			onConnection: () => ({ onMessage: () => undefined, onClose: () => undefined }),
		});
		const { port } = await manager.start();
		try {
			expect(LOOPBACK_HOST).toBe("127.0.0.1");
			expect(manager.boundAddress).toEqual({ address: "127.0.0.1", family: "IPv4", port });
			expect(port).toBeGreaterThan(0);
		} finally {
			await manager.stop();
		}
		expect(manager.boundAddress).toBeUndefined();
	});
});
