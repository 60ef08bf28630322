"""The browser client of the poker room (poker.md §9).

Plain HTML, CSS and ES modules in ``static/`` with no build step and no network access at run time: the
server serves ``/`` and ``/r/{code}`` as ``static/index.html`` and everything else under ``/static/``. The
client holds no game rule: it draws the ``view`` of ``docs/view.md`` and sends actions chosen from its
``legalActions`` over the websocket of ``docs/protocol.md``. Cards are drawn as the project's own SVG.
"""
