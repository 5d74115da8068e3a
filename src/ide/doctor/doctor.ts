import { dirname, join } from "node:path";
import { describeError } from "../../shared/describe-error";
import { lockDirectory, lockFilePath, userHomeDirectory } from "../../server/lock-file";
import type { BridgeStatus, ClientStatus } from "../bridge-host";
import { launchCommand } from "../launch-command";
import { defaultDoctorEnvironment, type DoctorEnvironment } from "./doctor-environment";
import { checkPermissionRules, type PermissionRulesInputs } from "./claude-permissions-check";
import { fail, ok, warn, withCommand, type DoctorLine } from "./doctor-line";
import { checkOtherLockFiles } from "./other-lock-files";
import { checkOwnLockFile } from "./own-lock-file";
import type { ProbeResult } from "./probe-connection";
import { checkVaultLocation, type VaultFolderPaths } from "./vault-location";

/** What the doctor needs from the app that runs the bridge (plugin or headless host). */
export interface DoctorInputs {
	/** The vault folder as the app knows it; undefined when the vault is not on the local file system. */
	vaultPath: string | undefined;
	status: BridgeStatus;
	/** The process id the bridge writes into its lock file. */
	pid: number;
	/** The name the bridge gives itself in `/ide`. */
	ideName?: string;
	/** Where `.claude/ide` is; defaults to the user's home directory. */
	homeDir?: string;
	/** The deny rules for Claude Code's own file tools (worked out from the disk, hence possibly a promise); not checked when absent. */
	permissionRules?: PermissionRulesInputs | Promise<PermissionRulesInputs>;
}

/**
 * Checks, in the order a user would debug "`/ide` does not list my vault", everything between the bridge and Claude Code:
 * the server, the vault's path, the lock file, the port and token, other editors, connected clients, the launch command.
 * Never throws: a check that breaks becomes a failed line.
 */
export async function runDoctor(
	inputs: DoctorInputs,
	env: DoctorEnvironment = defaultDoctorEnvironment(),
): Promise<DoctorLine[]> {
	const { status } = inputs;
	const lines: DoctorLine[] = [bridgeStateLine(status)];
	const listening = status.state === "listening" && status.port !== undefined;

	let location: VaultFolderPaths | undefined;
	if (inputs.vaultPath === undefined) {
		lines.push(
			fail(
				"The vault is not on the local file system",
				"Claude Code Bridge works only with a vault folder on this computer.",
			),
		);
	} else {
		const vaultPath = inputs.vaultPath;
		await guarded(lines, "the vault's location", async () => {
			const checked = await checkVaultLocation(vaultPath, env.fs);
			location = checked.location;
			return checked.lines;
		});
	}

	const homeDir = inputs.homeDir ?? userHomeDirectory();
	const ownPath = status.lockFilePath ?? (status.port === undefined ? undefined : lockFilePath(homeDir, status.port));
	if (listening && ownPath !== undefined) {
		const port = status.port;
		await guarded(lines, "the lock file", async () => {
			const own = await checkOwnLockFile(
				{
					path: ownPath,
					pid: inputs.pid,
					ideName: inputs.ideName,
					tokenFingerprint: status.tokenFingerprint,
					realVaultPath: location?.real,
				},
				env,
			);
			const token = own.fields?.authToken;
			// Without a token in the lock file, Claude Code cannot connect either; the lock file lines already say why.
			if (port === undefined || token === undefined) return own.lines;
			return [...own.lines, connectionLine(port, await env.probe(port, token))];
		});
	}

	const directories = [ownPath === undefined ? lockDirectory(homeDir) : dirname(ownPath)];
	if (env.claudeConfigDir !== undefined) directories.push(join(env.claudeConfigDir, "ide"));
	const checkedFolder = listening && ownPath !== undefined ? dirname(ownPath) : undefined;
	await guarded(lines, "other editors' lock files", () =>
		checkOtherLockFiles(
			{ directories, ownPath, ownPort: status.port, checkedFolder, realVaultPath: location?.real },
			env,
		),
	);

	if (listening) lines.push(clientsLine(status.clients, env.now(), inputs.ideName));
	const { vaultPath, permissionRules } = inputs;
	if (vaultPath !== undefined && permissionRules !== undefined) {
		await guarded(lines, "Claude Code's permission rules", async () => [
			await checkPermissionRules(vaultPath, await permissionRules),
		]);
	}
	if (location) lines.push(launchLine(location.real, status.port, env.platform));
	return lines;
}

function bridgeStateLine(status: BridgeStatus): DoctorLine {
	switch (status.state) {
		case "listening":
			return ok(
				`The bridge listens on 127.0.0.1:${status.port ?? "?"}${status.warning ? ` (${status.warning})` : ""}`,
			);
		case "starting":
			return warn("The bridge is still starting", "Check again in a moment.");
		case "stopped":
			return fail(
				"The bridge is off, so it writes no lock file and /ide cannot list the vault",
				'Turn on "Let Claude Code connect" in the plugin\'s settings.',
			);
		case "failed":
			return fail(
				`The bridge could not start: ${status.error ?? "unknown error"}`,
				"Fix the cause above, then restart the bridge; with a fixed port, clear it to use a random free port.",
			);
	}
}

function connectionLine(port: number, result: ProbeResult): DoctorLine {
	const restart = "Restart the bridge, then run /ide in Claude Code.";
	switch (result.kind) {
		case "accepted":
			return ok(`Port ${port} answers and accepts the token in the lock file`);
		case "refused":
			return result.status === 401
				? fail(
						`Port ${port} refused the token in the lock file (HTTP 401)`,
						`${restart} The lock file and the server must hold the same token.`,
					)
				: fail(
						`Port ${port} answered HTTP ${result.status} instead of opening a connection`,
						`${restart} If another program holds the port, clear the fixed port to use a random free one.`,
					);
		case "no-subprotocol":
			return fail(
				`Port ${port} opened a connection without the mcp subprotocol, which Claude Code requires`,
				`${restart} Another program may be listening on this port.`,
			);
		case "unreachable":
			return fail(
				`Nothing answers on 127.0.0.1:${port} (${result.reason})`,
				`${restart} A firewall or security tool that blocks loopback connections has the same effect.`,
			);
	}
}

function clientsLine(clients: readonly ClientStatus[], now: Date, ideName: string | undefined): DoctorLine {
	if (clients.length === 0) {
		const pick = ideName === undefined ? "this vault" : `"${ideName}"`;
		return warn(
			"No Claude Code client is connected",
			`Start Claude Code with the launch command below, or run /ide in a running session and pick ${pick}.`,
		);
	}
	const described = clients.map((client) => {
		const name = [client.clientName ?? "A client", client.clientVersion].filter(Boolean).join(" ");
		const who = client.pid === undefined ? `connection ${client.id}` : `pid ${client.pid}`;
		return `${name} (${who}) since ${client.connectedAt.toTimeString().slice(0, 8)}, ${elapsed(client.connectedAt, now)}`;
	});
	return ok(`Connected: ${described.join("; ")}`);
}

function elapsed(since: Date, now: Date): string {
	const minutes = Math.floor((now.getTime() - since.getTime()) / 60_000);
	if (minutes < 1) return "less than a minute ago";
	if (minutes < 120) return `${minutes} min ago`;
	return `${Math.floor(minutes / 60)} h ago`;
}

function launchLine(realVaultPath: string, port: number | undefined, platform: NodeJS.Platform): DoctorLine {
	const command = launchCommand(realVaultPath, platform);
	if (port === undefined) return withCommand(ok(`Start Claude Code in this vault with: ${command}`), command);
	const elsewhere =
		platform === "win32"
			? `$env:CLAUDE_CODE_SSE_PORT=${port}; claude --ide`
			: `CLAUDE_CODE_SSE_PORT=${port} claude --ide`;
	return withCommand(
		ok(
			`Start Claude Code in this vault with: ${command} (from another folder: ${elsewhere}; unless the port is fixed, it changes when the bridge restarts)`,
		),
		command,
	);
}

async function guarded(lines: DoctorLine[], what: string, check: () => Promise<DoctorLine[]>): Promise<void> {
	try {
		lines.push(...(await check()));
	} catch (error) {
		lines.push(
			fail(
				`Could not check ${what}: ${describeError(error)}`,
				"Try again; if it keeps failing, report it with this message.",
			),
		);
	}
}
