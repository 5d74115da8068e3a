/**
 * How long a `beforeAll`/`beforeEach` may take to build a fixture: start a server, spawn a process, write or
 * index a generated vault. Such a start takes well under a second on a quiet machine, but CI machines and
 * developer laptops are shared: with other work on two cores (load average about 9) a start took longer than
 * Jest's default 5 s, the hook failed, and every test of the file failed with it (issue 15, finding 9).
 * This is a limit that turns a hang into a failure, never a measurement. Pass it as the hook's timeout.
 */
export const FIXTURE_TIMEOUT_MS = 60_000;
