import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { nodeCliMachine } from "../../../src/agent/claude-cli/node-cli-machine";
import { makeTempDir } from "../../helpers/temp-dir";

describe("nodeCliMachine", () => {
	const folder = makeTempDir("cli-machine");
	beforeAll(() => {
		writeFileSync(path.join(folder.path, "runnable"), "#!/bin/sh\necho hi\n");
		chmodSync(path.join(folder.path, "runnable"), 0o755);
		writeFileSync(path.join(folder.path, "plain.txt"), "text");
		chmodSync(path.join(folder.path, "plain.txt"), 0o644);
		writeFileSync(path.join(folder.path, "claude.cmd"), "@echo off");
		mkdirSync(path.join(folder.path, "sub"));
	});
	afterAll(() => folder.remove());

	test("inspect tells executables, other files, folders and missing paths apart", async () => {
		const machine = nodeCliMachine();
		const kinds = await Promise.all(
			["runnable", "plain.txt", "sub", "nothing"].map((name) => machine.inspect(path.join(folder.path, name))),
		);
		expect(kinds).toEqual(["executable", "not-executable", "directory", "missing"]);
	});

	test("as Windows, a file is startable by its extension (Windows has no execute bit)", async () => {
		const machine = nodeCliMachine(process.env, "win32");
		expect(await machine.inspect(path.join(folder.path, "claude.cmd"))).toBe("executable");
		expect(await machine.inspect(path.join(folder.path, "runnable"))).toBe("not-executable");
	});

	test("listFolder and readText; a missing folder or file gives nothing", async () => {
		const machine = nodeCliMachine();
		expect((await machine.listFolder(folder.path)).sort()).toEqual(["claude.cmd", "plain.txt", "runnable", "sub"]);
		expect(await machine.listFolder(path.join(folder.path, "nothing"))).toEqual([]);
		expect(await machine.readText(path.join(folder.path, "claude.cmd"))).toBe("@echo off");
		expect(await machine.readText(path.join(folder.path, "nothing"))).toBeUndefined();
		expect(await machine.readText(path.join(folder.path, "sub"))).toBeUndefined();
	});

	test("run returns the exit code and output, with the given environment and stdin at end of file", async () => {
		const machine = nodeCliMachine({ ...process.env, CCB_PROBE: "from-env" });
		const script =
			"process.stdin.resume(); process.stdin.on('end', () => { process.stdout.write(process.env.CCB_PROBE); process.stderr.write('warn'); process.exit(3); });";
		expect(await machine.run(process.execPath, ["-e", script], { timeoutMs: 20_000 })).toEqual({
			exitCode: 3,
			stdout: "from-env",
			stderr: "warn",
			timedOut: false,
		});
		expect(
			await machine.run(process.execPath, ["-e", "process.stdout.write('ok')"], { timeoutMs: 20_000 }),
		).toEqual({ exitCode: 0, stdout: "ok", stderr: "", timedOut: false });
	});

	test("a program that cannot be started says why; one that runs too long is stopped", async () => {
		const machine = nodeCliMachine();
		const missing = await machine.run(path.join(folder.path, "nothing"), [], { timeoutMs: 20_000 });
		expect(missing).toMatchObject({ exitCode: null, timedOut: false });
		expect(missing.startError).toContain("ENOENT");
		const slow = await machine.run(
			process.execPath,
			["-e", "process.stdout.write('started'); setTimeout(() => {}, 60000)"],
			{ timeoutMs: 500 },
		);
		expect(slow).toMatchObject({ exitCode: null, timedOut: true });
		expect(slow.startError).toBeUndefined();
	});
});
