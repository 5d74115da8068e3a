/**
 * A model's name as people say it: Claude Code reports the model's id (`claude-sonnet-4-5`,
 * `claude-opus-4-1-20250805`, `claude-3-5-haiku-20241022`); the panel says "Sonnet 4.5". An id of another shape
 * is shown as it came.
 */
export function modelWords(id: string): string {
	const family = "(opus|sonnet|haiku)";
	const version = "(\\d+)(?:-(\\d))?";
	const newer = new RegExp(`^claude-${family}-${version}(?:-\\d{8})?(\\[1m\\])?$`).exec(id);
	const older = new RegExp(`^claude-${version}-${family}(?:-\\d{8}|-latest)?$`).exec(id);
	const [name, major, minor, wide] = newer
		? [newer[1], newer[2], newer[3], newer[4]]
		: older
			? [older[3], older[1], older[2], undefined]
			: [];
	if (name === undefined || major === undefined) return id;
	const words = `${name.charAt(0).toUpperCase()}${name.slice(1)} ${major}${minor === undefined ? "" : `.${minor}`}`;
	return wide === undefined ? words : `${words} (1M context)`;
}
