"""The room server: private rooms, seats, websockets, timers and a crash-safe SQLite store.

Modules, one job each:
``protocol`` (wire messages and Korean error texts), ``tokens`` (room codes, seat tokens), ``limits`` (sizes,
rates, caps, origin check), ``hosts`` (invite-link base, LAN address, Host allow-list), ``headers`` (the
browser edge: Host and JSON checks, security headers), ``store`` (SQLite WAL persistence), ``timers`` (scaled
clock and deadline timers), ``engine_port`` (the only door to :mod:`pokerroom.engine`), ``botseat`` (bot
players and hints from :mod:`pokerroom.bots`), ``rooms`` (the registry of one process's rooms, composed of
``room_model`` (data), ``room_writer`` (the single writer of a room's changes, restore and replay),
``room_views`` (each socket's own view, broadcasts, history), ``room_clock`` (deadlines and bots),
``room_members`` and ``room_handlers`` (members; one method per client message), with ``seating``,
``preactions``, ``reactions`` and ``deltas`` beside them), ``app`` (Starlette HTTP + websocket endpoints),
``cli`` (``pokerroom serve``); operations (docs/operations.md): ``health`` (the ``/readyz`` check registry),
``metrics`` (``/metrics``, prometheus-client when installed), ``logs`` (JSON-lines logs with node and room),
``drain`` (SIGTERM: freeze rooms, hooks, close sockets with 4012).

The server never decides a rule: it routes actions to the engine and the engine's per-viewer views back.
"""
