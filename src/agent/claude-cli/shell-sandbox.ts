/**
 * Whether Claude Code's shell sandbox can hold places out on this machine. CLI 2.1.330 runs shell commands in
 * `bubblewrap` on Linux (and needs `socat` for its network proxy) and in macOS's built-in `sandbox-exec`; it has
 * none on Windows. The panel turns the sandbox on only where it will really run, so a card never says "sandboxed"
 * for a command that is not.
 */
import type { CliMachine } from "./cli-machine";

export type SandboxSupport = { available: true } | { available: false; why: string };

const MACOS_SANDBOX = "/usr/bin/sandbox-exec";

export async function shellSandboxSupport(
	machine: Pick<CliMachine, "platform" | "env" | "inspect">,
	path = machine.env["PATH"] ?? "",
): Promise<SandboxSupport> {
	if (machine.platform === "darwin") {
		return (await machine.inspect(MACOS_SANDBOX)) === "executable"
			? { available: true }
			: { available: false, why: `${MACOS_SANDBOX} is missing` };
	}
	if (machine.platform !== "linux")
		return { available: false, why: "Claude Code has no shell sandbox on this system" };
	const missing: string[] = [];
	for (const program of ["bwrap", "socat"]) {
		if (!(await onPath(machine, path, program))) missing.push(program === "bwrap" ? "bubblewrap (bwrap)" : program);
	}
	return missing.length === 0
		? { available: true }
		: { available: false, why: `${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not installed` };
}

async function onPath(machine: Pick<CliMachine, "inspect">, path: string, program: string): Promise<boolean> {
	for (const folder of path.split(":")) {
		if (
			folder.startsWith("/") &&
			(await machine.inspect(`${folder.replace(/\/+$/, "")}/${program}`)) === "executable"
		)
			return true;
	}
	return false;
}
