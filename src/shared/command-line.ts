import { parseArgs } from "node:util";

/**
 * One parser for the options of the package's commands (`serve`, `mcp`, `mcp-headers`), over Node's own
 * `util.parseArgs`. Each command declares its options as data; every mistake is an `ArgumentError` with the one line
 * the user sees (never `parseArgs`'s own wording). Only `--name value` (and a declared `-x` alone) is accepted: no
 * `--name=value`, no grouped short options, no positional arguments, no `--`.
 */
export class ArgumentError extends Error {}

/** `text`: one value, the last one given wins; `texts`: repeatable; `port`: 1 to 65535; `flag`: no value. */
export type OptionKind = "text" | "texts" | "port" | "flag";

export interface OptionSpec {
	readonly kind: OptionKind;
	/** A one-letter spelling, as in `-h`. */
	readonly short?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<K extends OptionKind> = K extends "text"
	? string | undefined
	: K extends "texts"
		? string[]
		: K extends "port"
			? number | undefined
			: boolean;

/** What the command line gave, by option name (without its `--`): unset texts and ports are undefined, lists empty, flags false. */
export type ParsedOptions<S extends OptionSpecs> = { -readonly [N in keyof S]: ValueOf<S[N]["kind"]> };

export function parseCommandLine<S extends OptionSpecs>(argv: readonly string[], specs: S): ParsedOptions<S> {
	const parsed: Record<string, string | string[] | number | boolean | undefined> = {};
	for (const [name, spec] of Object.entries(specs))
		parsed[name] = spec.kind === "texts" ? [] : spec.kind === "flag" ? false : undefined;
	const options = Object.fromEntries(
		Object.entries(specs).map(([name, spec]) => [
			name,
			{
				type: spec.kind === "flag" ? ("boolean" as const) : ("string" as const),
				...(spec.short === undefined ? {} : { short: spec.short }),
			},
		]),
	);
	const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
	for (const token of tokens) {
		const argument = argv[token.index];
		if (token.kind !== "option") throw new ArgumentError(`Unknown argument: ${argument}`);
		const spec = Object.prototype.hasOwnProperty.call(specs, token.name) ? specs[token.name] : undefined;
		const spelled = argument === `--${token.name}` || (spec?.short !== undefined && argument === `-${spec.short}`);
		if (spec === undefined || !spelled) throw new ArgumentError(`Unknown argument: ${argument}`);
		if (spec.kind === "flag") {
			parsed[token.name] = true;
			continue;
		}
		const value = token.value;
		if (value === undefined || value.trim() === "" || value.startsWith("--"))
			throw new ArgumentError(`${argument} needs a value`);
		if (spec.kind === "texts") (parsed[token.name] as string[]).push(value);
		else parsed[token.name] = spec.kind === "port" ? port(argument, value) : value;
	}
	return parsed as ParsedOptions<S>;
}

/** A port: a whole number from 1 to 65535, else an ArgumentError. */
function port(name: string, value: string): number {
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1 || number > 65535)
		throw new ArgumentError(`${name} must be a whole number from 1 to 65535, not "${value}"`);
	return number;
}
