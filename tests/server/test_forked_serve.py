"""The suite's servers are forked from a warm parent (tests/forked_serve.py): each must still be what
``python -m pokerroom serve`` in a fresh interpreter would be to a test — the test's own child, with the
environment and output file it was given, its exit code and signals read as ``Popen`` reads them."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from forked_serve import ROOT, ForkedProcess, forkable
from serving import ServeProcess


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def test_a_forked_server_is_the_tests_own_child_with_its_environment_and_output(tmp_path: Path) -> None:
    srv = ServeProcess(tmp_path, "--public-url", "http://192.168.0.77:{port}", log_level="info",
                       env={"POKERROOM_LOG_FORMAT": "json"}).up()
    try:
        assert isinstance(srv.proc, ForkedProcess)
        assert _parent(srv.proc.pid) == os.getpid()  # adopted: waited for like a Popen child
        room = srv.create_room()
        assert room["link"].startswith(f"http://192.168.0.77:{srv.port}/r/"), room
        # the environment it was given (the log format) and its output in its own file
        assert '"level"' in srv.output(since_start=True), srv.output()[-2000:]
    finally:
        srv.signal(signal.SIGKILL)
        assert srv.proc is not None and srv.proc.wait(timeout=10) == -signal.SIGKILL
    srv.start().wait()  # and it starts again on its address, as a restarted server does
    assert srv.answers()
    srv.stop()
    assert srv.proc.returncode == 0  # SIGTERM: a graceful drain, exit 0


def test_a_forked_server_imports_from_the_folders_of_its_pythonpath(tmp_path: Path) -> None:
    """The stand-in engines of the money and crash tests live in the tests' folders, on the server's
    PYTHONPATH: a fork must find them as a fresh interpreter does (its path was set before the request)."""
    probe = tmp_path / "lib"
    probe.mkdir()
    (probe / "probe_engine.py").write_text(
        "from pokerroom.server.engine_port import PokerEngine\n\n\n"
        "def factory() -> PokerEngine:\n    return PokerEngine()\n")
    srv = ServeProcess(tmp_path / "data", "--engine", "probe_engine:factory",
                       env={"PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{probe}"}).up()
    try:
        assert isinstance(srv.proc, ForkedProcess)
        assert srv.create_room()["link"]
    finally:
        srv.stop()


def test_another_source_tree_or_interpreter_setting_is_not_forked(tmp_path: Path) -> None:
    assert forkable({})
    assert forkable({"PYTHONPATH": str(ROOT / "src"), "POKERROOM_PUBLIC_URL": "http://x"})
    assert forkable({"PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT / 'tests'}"})  # (no other pokerroom there)
    (tmp_path / "pokerroom").mkdir()  # another checkout's package: only a fresh interpreter imports it
    assert not forkable({"PYTHONPATH": str(tmp_path)})
    assert not forkable({"PYTHONOPTIMIZE": "1"})
