import { resolve } from "node:path";

/**
 * The folder of the built processes the tests spawn (`headless.cjs`, `cli.cjs`): this checkout's dist/, which
 * Jest's global setup builds, unless CCB_TEST_DIST names another, e.g. a build from before a fix, to see which
 * tests fail there.
 */
export const DIST_DIR = resolve(process.env.CCB_TEST_DIST ?? resolve(__dirname, "../../dist"));
