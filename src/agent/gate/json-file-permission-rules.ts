import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { sameRule, type PermissionRule, type PermissionRules } from "./permission-rules";

/**
 * "Always" rules in a JSON file (the headless host's): `{ "rules": [{ "tool": "Bash", "commandPrefix": "npm test" }] }`.
 * A missing file holds no rules. A file that cannot be read as rules is never overwritten: listing it answers no
 * rules (so every tool is asked again) and adding a rule fails with the reason.
 */
export class JsonFilePermissionRules implements PermissionRules {
	private queue: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly file: string,
		private readonly log: (message: string) => void = () => undefined,
	) {}

	async list(): Promise<readonly PermissionRule[]> {
		const read = await this.read();
		if ("error" in read) {
			this.log(read.error);
			return [];
		}
		return read.rules;
	}

	add(rule: PermissionRule): Promise<void> {
		return this.change((rules) =>
			rules.some((kept) => sameRule(kept, rule))
				? rules
				: [
						...rules,
						{
							tool: rule.tool,
							...(rule.commandPrefix !== undefined ? { commandPrefix: rule.commandPrefix } : {}),
						},
					],
		);
	}

	revoke(rule: PermissionRule): Promise<void> {
		return this.change((rules) => rules.filter((kept) => !sameRule(kept, rule)));
	}

	/** One change at a time, written to a temporary file and renamed over the old one. */
	private change(update: (rules: PermissionRule[]) => PermissionRule[]): Promise<void> {
		const next = this.queue.then(async () => {
			const read = await this.read();
			if ("error" in read) throw new Error(read.error);
			await mkdir(dirname(this.file), { recursive: true });
			const temporary = `${this.file}.${process.pid}.tmp`;
			await writeFile(temporary, `${JSON.stringify({ rules: update(read.rules) }, null, "\t")}\n`, {
				mode: 0o600,
			});
			await rename(temporary, this.file);
		});
		this.queue = next.catch(() => undefined);
		return next;
	}

	private async read(): Promise<{ rules: PermissionRule[] } | { error: string }> {
		let text: string;
		try {
			text = await readFile(this.file, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return { rules: [] };
			return { error: `The permission rules in ${this.file} could not be read: ${(error as Error).message}` };
		}
		const rules = parseRules(text);
		return rules
			? { rules }
			: {
					error: `The permission rules in ${this.file} are not a list of rules; they are left as they are and no rule applies.`,
				};
	}
}

function parseRules(text: string): PermissionRule[] | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (typeof parsed !== "object" || parsed === null || !("rules" in parsed) || !Array.isArray(parsed.rules))
		return undefined;
	const rules: PermissionRule[] = [];
	for (const entry of parsed.rules as unknown[]) {
		if (typeof entry !== "object" || entry === null) return undefined;
		const { tool, commandPrefix } = entry as Record<string, unknown>;
		if (
			typeof tool !== "string" ||
			tool === "" ||
			(commandPrefix !== undefined && typeof commandPrefix !== "string")
		)
			return undefined;
		rules.push({ tool, ...(commandPrefix !== undefined ? { commandPrefix } : {}) });
	}
	return rules;
}
