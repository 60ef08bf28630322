"""Structured logs: one JSON object per line with time, level, message, node id and room code.

Why: with many nodes behind a load balancer, an operator greps one room's story across every node's log
(``jq 'select(.room=="abcdefghjk")'``). The room code comes from ``extra={"room": code}`` when a call
passes it, else from :data:`current_room`, a context variable the websocket handler sets for its socket's
task (tasks and timers created from there inherit it). The node id is set once per process.

``pokerroom serve --log-format json`` (env ``POKERROOM_LOG_FORMAT``) turns it on; the default stays uvicorn's
plain text.
"""

from __future__ import annotations

import contextvars
import json
import logging
import time
from typing import Any

current_room: contextvars.ContextVar[str | None] = contextvars.ContextVar("pokerroom_room", default=None)
_node = {"id": ""}

#: LogRecord attributes that are not "extra" fields
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime",
                                                                               "taskName"}


def set_node_id(node_id: str) -> None:
    """The node id every record of this process carries."""
    _node["id"] = node_id


class JsonFormatter(logging.Formatter):
    """A record as one JSON line: ``time`` (UTC ISO 8601, ms), ``level``, ``logger``, ``message``, ``node``,
    ``room`` (when known), the exception text (``exc``) and any other ``extra=`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        ms = int(record.msecs)
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{ms:03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "node": _node["id"],
        }
        room = getattr(record, "room", None) or current_room.get()
        if room:
            out["room"] = room
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out and key not in ("room", "color_message"):
                out[key] = value if isinstance(value, str | int | float | bool | None) else repr(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def uvicorn_log_config(level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn's ``log_config``: every logger (ours, uvicorn's, the
    root) writes JSON lines to stderr."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    lvl = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {"default": handler},
        "root": {"handlers": ["default"], "level": lvl},
        "loggers": {
            "uvicorn": {"handlers": [], "level": lvl, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": lvl, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": lvl, "propagate": True},
            "pokerroom": {"handlers": [], "level": lvl, "propagate": True},
        },
    }
