/**
 * `npm run screenshots`: builds main.js, renders the review view and the settings tab from it (the HTML step,
 * scripts/screenshots/views-html.ts, also run by tests/screenshots/views-html.test.ts), and photographs each in
 * an approximation of Obsidian's light and dark themes with the system's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium) into docs/screenshots/.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { chromium } from "playwright-core";

const repository = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(repository, ".cache", "screenshots");
const output = join(repository, "docs", "screenshots");
const VIEWPORT = { width: 900, height: 1000 };

execFileSync("npm", ["run", "build"], { cwd: repository, stdio: "inherit" });
mkdirSync(work, { recursive: true });
mkdirSync(output, { recursive: true });

// The HTML step is TypeScript and shares the tests' obsidian stand-in. It is bundled for Node together with the
// built main.js, whose require("obsidian") answers that same stand-in; packages stay in node_modules.
const bundle = join(work, "views-html.cjs");
await esbuild.build({
	stdin: {
		contents:
			'export { renderPages } from "./scripts/screenshots/entry.ts";\nexport { default as MainPlugin } from "./main.js";\n',
		resolveDir: repository,
		loader: "ts",
	},
	alias: { obsidian: "./tests/__mocks__/obsidian.ts" },
	bundle: true,
	platform: "node",
	format: "cjs",
	packages: "external",
	outfile: bundle,
	logLevel: "warning",
});
const { renderPages, MainPlugin } = createRequire(import.meta.url)(bundle);
const pages = await renderPages(MainPlugin, repository);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
	const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
	for (const { name, html, viewport } of pages) {
		const file = join(work, `${name}.html`);
		writeFileSync(file, html);
		await page.setViewportSize(viewport ?? VIEWPORT);
		await page.goto(`file://${file}`);
		// The pointer rests on the fifth change (clear of the accepted first one), so its accept and reject show.
		if (name.startsWith("review")) await page.hover(".ccb-suggest-change >> nth=4");
		await page.screenshot({
			path: join(output, `${name}.png`),
			fullPage: name.startsWith("settings"),
			animations: "disabled",
		});
		process.stdout.write(`docs/screenshots/${name}.png\n`);
	}
} finally {
	await browser.close();
}
