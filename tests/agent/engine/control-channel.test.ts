import { ControlChannel, type ControlRequestHandler } from "../../../src/agent/engine/control-channel";
import type { JsonRecord } from "../../../src/agent/claude-cli/json-lines";

function channel(handler: ControlRequestHandler = () => Promise.resolve({})): {
	channel: ControlChannel;
	written: JsonRecord[];
} {
	const written: JsonRecord[] = [];
	return { channel: new ControlChannel((record) => written.push(record), handler), written };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("ControlChannel", () => {
	it("matches each response to its request by request_id, in any order", async () => {
		const { channel: control, written } = channel();
		const first = control.request({ subtype: "set_model", model: "opus" });
		const second = control.request({ subtype: "interrupt" });
		const [idOne, idTwo] = written.map((record) => record["request_id"]);
		expect(written[0]).toEqual({
			type: "control_request",
			request_id: idOne,
			request: { subtype: "set_model", model: "opus" },
		});
		expect(idOne).not.toEqual(idTwo);
		control.accept({
			type: "control_response",
			response: { subtype: "success", request_id: idTwo, response: { still_queued: [] } },
		});
		control.accept({
			type: "control_response",
			response: { subtype: "error", request_id: idOne, error: "no such model" },
		});
		await expect(second).resolves.toEqual({ still_queued: [] });
		await expect(first).rejects.toThrow("set_model: no such model");
	});

	it("answers the CLI's requests with the handler's result, or its error", async () => {
		const { channel: control, written } = channel((request) =>
			request["subtype"] === "mcp_message"
				? Promise.resolve({ mcp_response: { ok: true } })
				: Promise.reject(new Error("unsupported")),
		);
		expect(control.accept({ type: "control_request", request_id: "a", request: { subtype: "mcp_message" } })).toBe(
			true,
		);
		control.accept({ type: "control_request", request_id: "b", request: { subtype: "hook_callback" } });
		control.accept({ type: "control_request", request_id: "c", request: "not an object" });
		await flush();
		expect(written).toEqual(
			expect.arrayContaining([
				{
					type: "control_response",
					response: { subtype: "success", request_id: "a", response: { mcp_response: { ok: true } } },
				},
				{ type: "control_response", response: { subtype: "error", request_id: "b", error: "unsupported" } },
				{
					type: "control_response",
					response: { subtype: "error", request_id: "c", error: "control_request without a request object" },
				},
			]),
		);
		expect(written).toHaveLength(3);
	});

	it("aborts the handler of a request the CLI withdraws, and sends no answer for it", async () => {
		let signal: AbortSignal | undefined;
		const { channel: control, written } = channel((_request, given) => {
			signal = given;
			return new Promise((resolve) => given.addEventListener("abort", () => resolve({ late: true })));
		});
		control.accept({ type: "control_request", request_id: "q", request: { subtype: "can_use_tool" } });
		expect(signal?.aborted).toBe(false);
		control.accept({ type: "control_cancel_request", request_id: "q" });
		await flush();
		expect(signal?.aborted).toBe(true);
		expect(written).toEqual([]);
	});

	it("leaves other messages alone", () => {
		expect(channel().channel.accept({ type: "assistant" })).toBe(false);
	});

	it("fails waiting and later requests once closed", async () => {
		const { channel: control } = channel();
		const waiting = control.request({ subtype: "interrupt" });
		control.close("the CLI exited");
		await expect(waiting).rejects.toThrow("interrupt: the CLI exited");
		await expect(control.request({ subtype: "set_model" })).rejects.toThrow("set_model: the CLI exited");
	});
});
