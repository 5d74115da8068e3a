/*
 * Time limits sized for a loaded machine. CI machines and developer laptops are shared: with other work on two
 * cores (load average about 9) a fixture's start took longer than Jest's default 5 s, the hook failed, and every
 * test of the file failed with it (issue 15, finding 9). These limits only turn a hang into a clear failure; no
 * test measures time with them. Jest's own default for tests and hooks is raised in jest.config.js.
 */

/**
 * How long a `beforeAll`/`beforeEach` may take to build a fixture: start a server, spawn a process, write or
 * index a generated vault. Pass it as the hook's timeout.
 */
export const FIXTURE_TIMEOUT_MS = 60_000;

/**
 * How long the helpers wait for something a test expects to happen (an answer, a notification, a line of
 * output) before they fail saying what they waited for. Below Jest's default test timeout (30 s), so that their
 * message, not Jest's, is what a hang reports.
 */
export const WAIT_TIMEOUT_MS = 20_000;
