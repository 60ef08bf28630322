"""The room domain: what a private room is and how it changes, with no web framework in sight.

A room's data (``model``), the registry of one process's rooms (``rooms``), a change computed as a plan
without I/O (``plan``, ``recording``), the driver that writes a plan, swaps it in and publishes it
(``driver``), restoring a stored room (``restore``), each socket's own view (``views``), members and seats
(``members``, ``seating``), one handler per client message (``handlers``, given ``parts``), deadlines and
bots (``clock``, ``timers``, ``botseat``), and the small rule sets beside them (``preactions``,
``reactions``, ``nicknames``, ``tokens``). Nothing here imports Starlette: the edge (``server.app``) hands
the room plain connections.
"""
