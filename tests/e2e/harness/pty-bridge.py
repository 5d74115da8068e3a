"""Runs a command in a pseudo-terminal and relays it over plain pipes.

usage: pty-bridge.py COLS ROWS CWD COMMAND [ARGS...]
stdin is typed into the terminal, the terminal's output goes to stdout, and the first line on
stderr is {"pid": <child pid>}. The child gets SIGKILL if this bridge dies; on SIGTERM or stdin
EOF the child's process group is terminated. Exits with the child's exit status.
"""
import ctypes
import errno
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

PR_SET_PDEATHSIG = 1


def run_child(cols, rows, cwd, argv):
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.chdir(cwd)
    os.execv(argv[0], argv)


exit_code = None


def reap(pid, timeout):
    global exit_code
    deadline = time.monotonic() + timeout
    while exit_code is None:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if done:
            exit_code = os.waitstatus_to_exitcode(status)
            return
        if time.monotonic() >= deadline:
            return
        time.sleep(0.05)


def kill_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def stop_child(pid):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if exit_code is not None:
            break
        kill_group(pid, sig)
        reap(pid, 2.0)
    kill_group(pid, signal.SIGKILL)


def relay(pid, master):
    stdin = sys.stdin.fileno()
    stdout = sys.stdout.fileno()
    reading_stdin = True
    while True:
        sources = [master, stdin] if reading_stdin else [master]
        ready, _, _ = select.select(sources, [], [], 0.2)
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError as error:
                if error.errno != errno.EIO:
                    raise
                data = b""
            if not data:
                return
            os.write(stdout, data)
        if stdin in ready:
            data = os.read(stdin, 65536)
            if not data:
                reading_stdin = False
                stop_child(pid)
                continue
            os.write(master, data)


def exit_status():
    if exit_code is None:
        return 1
    return exit_code if exit_code >= 0 else 128 - exit_code


def main():
    cols, rows, cwd, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    pid, master = pty.fork()
    if pid == 0:
        run_child(cols, rows, cwd, argv)
    sys.stderr.write(json.dumps({"pid": pid}) + "\n")
    sys.stderr.flush()
    signal.signal(signal.SIGTERM, lambda *_: (stop_child(pid), sys.exit(exit_status())))
    try:
        relay(pid, master)
        reap(pid, 5.0)
    finally:
        stop_child(pid)
    sys.exit(exit_status())


main()
