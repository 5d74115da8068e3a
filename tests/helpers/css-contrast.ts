/**
 * Contrast of the plugin's colours in Obsidian's default themes, computed from the stylesheets themselves: the
 * theme's custom properties (scripts/screenshots/obsidian-theme.css, Obsidian's documented values) and ours
 * (styles.css). Resolves `var()`, `#rrggbb`, `rgb[a]()` and `color-mix(in srgb, A p%, B)`; WCAG 2 relative luminance.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export type Theme = "light" | "dark";
type Rgba = [number, number, number, number];

const repository = join(__dirname, "..", "..");

/** The declarations of every rule whose selector list contains exactly `selector`, in order. */
export function declarations(css: string, selector: string): Map<string, string> {
	const found = new Map<string, string>();
	const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, "");
	for (const match of withoutComments.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
		const selectors = (match[1] ?? "").split(",").map((part) => part.trim());
		if (!selectors.includes(selector)) continue;
		for (const declaration of (match[2] ?? "").split(";")) {
			const colon = declaration.indexOf(":");
			if (colon < 0) continue;
			found.set(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
		}
	}
	return found;
}

/** The custom properties in force on `body` in a theme: Obsidian's defaults, then the plugin's own. */
export function themeProperties(theme: Theme): Map<string, string> {
	const obsidian = readFileSync(join(repository, "scripts", "screenshots", "obsidian-theme.css"), "utf8");
	const ours = readFileSync(join(repository, "styles.css"), "utf8");
	return new Map([
		...declarations(obsidian, "body"),
		...declarations(obsidian, `body.theme-${theme}`),
		...declarations(ours, "body"),
	]);
}

/** The stylesheet's declaration `property` for `selector` (the last rule that sets it). */
export function ruleValue(selector: string, property: string): string {
	const value = declarations(readFileSync(join(repository, "styles.css"), "utf8"), selector).get(property);
	if (value === undefined) throw new Error(`styles.css sets no ${property} for ${selector}`);
	return value;
}

export function resolveColor(value: string, properties: Map<string, string>, depth = 0): Rgba {
	if (depth > 20) throw new Error(`var() loop at ${value}`);
	const expanded = expandVars(value.trim(), properties, depth);
	const hex = /^#([0-9a-f]{6})$/i.exec(expanded);
	if (hex?.[1]) {
		const digits = hex[1];
		return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)).concat(1) as Rgba;
	}
	const rgb = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(expanded);
	if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
	const mix = /^color-mix\(in srgb,\s*(.+?)\s+([\d.]+)%\s*,\s*(.+)\)$/.exec(expanded);
	if (mix) {
		const first = resolveColor(mix[1] ?? "", properties, depth + 1);
		const second = resolveColor(mix[3] ?? "", properties, depth + 1);
		const share = Number(mix[2]) / 100;
		return first.map((channel, index) => channel * share + (second[index] ?? 0) * (1 - share)) as Rgba;
	}
	throw new Error(`cannot resolve the colour ${value} (${expanded})`);
}

function expandVars(value: string, properties: Map<string, string>, depth: number): string {
	let text = value;
	for (let round = 0; round < 20 && text.includes("var("); round++) {
		text = text.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]+))?\)/g, (_whole, name: string, fallback?: string) => {
			const found = properties.get(name) ?? fallback;
			if (found === undefined) throw new Error(`${name} is not set in the theme (depth ${depth})`);
			return found;
		});
	}
	return text;
}

/** `top` painted over an opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
	const alpha = top[3];
	return [0, 1, 2].map((index) => (top[index] ?? 0) * alpha + (bottom[index] ?? 0) * (1 - alpha)).concat(1) as Rgba;
}

export function contrastRatio(a: Rgba, b: Rgba): number {
	const light = Math.max(luminance(a), luminance(b));
	const dark = Math.min(luminance(a), luminance(b));
	return (light + 0.05) / (dark + 0.05);
}

function luminance(color: Rgba): number {
	const [red, green, blue] = [0, 1, 2].map((index) => {
		const value = (color[index] ?? 0) / 255;
		return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
	});
	return 0.2126 * (red ?? 0) + 0.7152 * (green ?? 0) + 0.0722 * (blue ?? 0);
}
