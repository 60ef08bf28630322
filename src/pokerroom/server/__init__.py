"""The room server: private rooms, seats, websockets, timers and a crash-safe store.

The folders are the parts; a change goes where its folder name says:

- ``room/``: the room domain (data, the single writer, views, members, seating, handlers, clock, bots,
  pre-actions, reactions, nicknames, tokens); no web framework;
- ``wire/``: websocket message schemas (``protocol``) and view deltas (``deltas``);
- ``edge/``: the browser edge (``headers``, ``guard``, ``hosts``, ``limits``);
- ``ops/``: operations (``health``, ``metrics``, ``logs``, ``drain``);
- ``storage/``: the room stores (SQLite, PostgreSQL) and the group-commit writer;
- ``engine_port``: the one door to :mod:`pokerroom.engine`;
- ``app``: Starlette HTTP + websocket endpoints; ``cli``: ``pokerroom serve``.

The server never decides a rule: it routes actions to the engine and the engine's per-viewer views back.
"""
