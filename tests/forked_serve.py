"""``pokerroom serve`` processes forked from a warm parent that has already imported the server.

Why: a test run starts more than a hundred servers (every fixture's own, every cluster node and restart),
and each spent about a second of CPU importing the package and its libraries before it did anything a test
looks at: about half of the CPU of all the servers of a run, on a machine with two cores. A parent per
pytest worker (the *zygote*) imports them once; a server is a fork of it that sets up what
``subprocess.Popen`` would (its working folder, environment, output file, open-file limit) and runs the very
``pokerroom serve`` command line (:func:`pokerroom.cli.main`) a fresh interpreter would.

The server must still be the test's own child, as a ``Popen`` one is: a test kills it, stops it, waits for
its exit code. So the zygote forks twice and the middle process exits: the server is orphaned and the
kernel hands it to the nearest ancestor that asked to adopt orphans, the pytest worker
(``PR_SET_CHILD_SUBREAPER``), which waits on it like any child (:class:`ForkedProcess`).

What a fork cannot give is a different interpreter or source tree: a server asked for with another
checkout on its ``PYTHONPATH`` (or any interpreter setting) is started the usual way (:func:`forkable`).
The zygote stays single-threaded (a fork copies only the calling thread) and never imports uvloop
(``test_event_loop`` checks that the loop a server runs is the one it asked for).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_PR_SET_CHILD_SUBREAPER = 36
#: what the zygote imports before its first fork: the single node's server and a cluster node's extras
WARM = ("pokerroom.cli", "pokerroom.serve", "pokerroom.server.app", "pokerroom.cluster.node", "uvicorn.main",
        "uvicorn.protocols.http.h11_impl", "uvicorn.protocols.websockets.websockets_sansio_impl",
        "uvicorn.lifespan.on")
#: environment keys a forked server may be given (the rest of the interpreter's settings need a fresh one)
_SAME_INTERPRETER = ("PYTHONPATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED")


def forkable(env: dict[str, str]) -> bool:
    """Can a fork of the zygote run a server with environment ``env`` (the extra keys a test gave)?"""
    if any(key.startswith("PYTHON") and key not in _SAME_INTERPRETER for key in env):
        return False
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if any((Path(p) / "pokerroom").exists() and Path(p).resolve() != ROOT / "src" for p in paths):
        return False  # another checkout's package
    return sys.platform == "linux"


def limit_open_files(n: int) -> None:
    """Like ``ulimit -n n`` for this process (a server's own limit: it runs before the server starts)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))


class ForkedProcess:
    """The part of ``subprocess.Popen`` the harness uses, for a server the zygote forked (adopted)."""

    def __init__(self, pid: int, args: list[str]) -> None:
        self.pid = pid
        self.args = args
        self.returncode: int | None = None
        # one waitpid at a time: a test may wait for a node's exit in a thread while another polls it, and
        # the second waitpid of an exited child would find nothing to read its exit code from
        self._lock = threading.Lock()

    def poll(self) -> int | None:
        with self._lock:
            if self.returncode is None:
                try:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                except ChildProcessError:  # reaped by someone else: gone, its code unknown (as Popen: 0)
                    self.returncode = 0
                    return self.returncode
                if pid == self.pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        delay = 0.002
        while self.poll() is None:
            if end is not None and time.monotonic() >= end:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The worker's warm parent: ``spawn()`` forks a server from it."""

    def __init__(self) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, cwd=str(ROOT),
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.lock = threading.Lock()
        if self._read().get("ready") is not True:
            raise RuntimeError("the server zygote did not start")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the server zygote exited ({self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def spawn(self, argv: list[str], env: dict[str, str], log: Path, nofile: int | None) -> ForkedProcess:
        """``python -m pokerroom <argv>`` with exactly ``env``, its output appended to ``log``."""
        request = {"argv": argv, "env": env, "cwd": str(ROOT), "log": str(log), "nofile": nofile}
        with self.lock:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            pid = int(self._read()["pid"])
        return ForkedProcess(pid, [sys.executable, "-m", "pokerroom", *argv])


_ZYGOTE: Zygote | None = None


def zygote() -> Zygote:
    """This worker's zygote, started at its first server."""
    global _ZYGOTE
    if _ZYGOTE is None or _ZYGOTE.proc.poll() is not None:
        _ZYGOTE = Zygote()
    return _ZYGOTE


# --- the zygote itself (this file run as a script) ----------------------------------------------------------

def _serve(request: dict[str, Any]) -> None:
    """In the forked server: what Popen would have set up, then the command line. Never returns."""
    code = 1
    try:
        out = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.closerange(3, 1024)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        # what a fresh interpreter puts after its first entry: the folders of its PYTHONPATH (a test's
        # stand-in engine module, say); those of the zygote's own are this tree's (see forkable)
        sys.path[1:1] = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        if request["nofile"] is not None:
            limit_open_files(request["nofile"])
        sys.argv = [str(ROOT / "src" / "pokerroom" / "__main__.py"), *request["argv"]]
        from pokerroom.cli import main

        code = main(request["argv"])
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _fork(request: dict[str, Any]) -> int:
    """Fork the server through a middle process that exits at once (the server is orphaned: see above)."""
    r, w = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.close(r)
        server = os.fork()
        if server == 0:
            os.close(w)
            _serve(request)
        os.write(w, str(server).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        pid = int(fh.read())
    os.waitpid(middle, 0)
    return pid


def _main() -> None:
    import importlib

    sys.path[0] = str(ROOT)  # as ``python -m`` run from the repository: its folder first, not tests/
    for name in WARM:
        importlib.import_module(name)
    if threading.active_count() != 1 or "uvloop" in sys.modules:
        raise SystemExit("the server zygote must stay single-threaded and without uvloop")
    reply = sys.stdout.buffer
    reply.write(b'{"ready": true}\n')
    reply.flush()
    for line in sys.stdin.buffer:
        pid = _fork(json.loads(line))
        reply.write(json.dumps({"pid": pid}).encode() + b"\n")
        reply.flush()


if __name__ == "__main__":
    _main()
