"""Command-line tools and simulation: ``pokerroom odds``, ``pokerroom simulate`` and the bot play statistics.

Why only these: the tools sit on top of everything else (they drive the engine with bots and print with
rich); the libraries they use live below their users (:mod:`pokerroom.odds`, :mod:`pokerroom.history`), so
nothing below ever imports from here.
"""
