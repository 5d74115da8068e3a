/** Shim texts in the forms npm (cmd-shim), older npm and pnpm write them, with CRLF line ends as on Windows. */
export const crlf = (lines: string[]): string => lines.join("\r\n") + "\r\n";

/** npm's shim for a bin that is a program (`@anthropic-ai/claude-code` 2.x: `bin/claude.exe`). */
export const NPM_EXE_SHIM = crlf([
	"@ECHO off",
	"GOTO start",
	":find_dp0",
	"SET dp0=%~dp0",
	"EXIT /b",
	":start",
	"SETLOCAL",
	"CALL :find_dp0",
	`"%dp0%\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe"   %*`,
]);

/** npm's shim for a JavaScript bin (Claude Code 1.x: `cli.js`). */
export const NPM_NODE_SHIM = crlf([
	"@ECHO off",
	"GOTO start",
	":find_dp0",
	"SET dp0=%~dp0",
	"EXIT /b",
	":start",
	"SETLOCAL",
	"CALL :find_dp0",
	"",
	`IF EXIST "%dp0%\\node.exe" (`,
	`  SET "_prog=%dp0%\\node.exe"`,
	") ELSE (",
	`  SET "_prog=node"`,
	"  SET PATHEXT=%PATHEXT:;.JS;=;%",
	")",
	"",
	`endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\node_modules\\@anthropic-ai\\claude-code\\cli.js" %*`,
]);

export const PNPM_SHIM = crlf([
	"@SETLOCAL",
	`@IF EXIST "%~dp0\\node.exe" (`,
	`  "%~dp0\\node.exe"  "%~dp0\\..\\@anthropic-ai\\claude-code\\cli.js" %*`,
	") ELSE (",
	"  @SET PATHEXT=%PATHEXT:;.JS;=;%",
	`  node  "%~dp0\\..\\@anthropic-ai\\claude-code\\cli.js" %*`,
	")",
]);
