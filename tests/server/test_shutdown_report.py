"""A slow shutdown says what it waits for (cli.report_pending_tasks): each pending task and its line."""

from __future__ import annotations

import asyncio
import logging

import pytest

from pokerroom.serve import report_pending_tasks


def test_pending_tasks_are_logged_with_where_they_wait(caplog: pytest.LogCaptureFixture) -> None:
    async def stuck_in_detach() -> None:
        await asyncio.Event().wait()

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(stuck_in_detach(), name="socket-7")
        await asyncio.sleep(0)
        with caplog.at_level(logging.WARNING, logger="pokerroom.server"):
            report_pending_tasks()
        task.cancel()

    asyncio.run(main())
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "shutdown still waiting" in text
    assert "socket-7: stuck_in_detach@test_shutdown_report.py:" in text
    assert "main@" not in text  # the task that reports is not one it waits for
