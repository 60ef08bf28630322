"""Hand history: finished hands recorded from the engine's public events and views; PHH export.

Why here, beside :mod:`pokerroom.odds` and below the bots, the tools and the server: the room server records
and serves every table's hands (and stores them), the simulator records the hands it plays and the CLI
exports them to PHH. A history is built from the engine's *output* (events as plain dicts, views) and
imports nothing but :mod:`pokerroom.cards`, so both users can import it without one reaching into the
other (it used to live among the command-line tools, which the server had to import).

- :mod:`.record` — :class:`HandRecord`, :class:`HistoryRecorder` (the ledger check), :func:`summary`.
- :mod:`.viewer` — :func:`for_viewer`: what one player or a spectator may see of a finished hand.
- :mod:`.steps` — the public table of a hand, step by step (views without anyone's private card).
- :mod:`.frames` — :func:`replay_frames`: the replay for one viewer, their own cards whitelisted in.
- :mod:`.naming` — the ranked names the table gives a player's cards ("J 원페어").
- :mod:`.phh` — :func:`to_phh`, :func:`export_phh`: a hand as PHH text where PHH can say it.
- :mod:`.phh_import` — :func:`import_phh`: a PHH file read with ``tomllib`` and replayed into a record.
"""

from pokerroom.history.phh import PHH_VARIANTS, export_phh, to_phh
from pokerroom.history.record import HandRecord, HistoryRecorder, ViewOf, summary
from pokerroom.history.viewer import for_viewer

__all__ = [
    "PHH_VARIANTS",
    "HandRecord",
    "HistoryRecorder",
    "ViewOf",
    "export_phh",
    "for_viewer",
    "summary",
    "to_phh",
]
