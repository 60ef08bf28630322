"""Reactions and (optional) chat: short, fixed table talk shown over the sender's seat for a few seconds.

Why fixed reactions first: a poker night needs "나이스!" and "빨리요~", not a chat room to moderate.
A reaction is one of a small set of ids (emoji and short Korean phrases, :data:`REACTIONS`); free text only
exists when the host turns chat on, and is then length-capped and sent as plain text (clients must insert it
as text, never as HTML). Nothing here is ever stored — not in the room's rows, not in the hand history: a
reaction lives exactly as long as the frames that carry it (poker.md §12: nothing outlives the room, and
table talk not even that).

Per sender (a player id, or a spectator's connection) a token bucket allows a short burst and then one message
every couple of seconds, so one phone cannot bury the table in bubbles. Spectators may react, and chat, only
when the host allows each (two switches: a host who welcomes a friend's "ㅋㅋ" from the rail may still not
want free text from everyone who has the link); a spectator's line is marked as one (``"spectator": true``)
so nobody mistakes it for a seated player's.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass
from typing import Any

#: id -> what the table shows. Emoji and short phrases in the room's Korean voice.
REACTIONS: dict[str, str] = {
    "nice": "나이스!",
    "hurry": "빨리요~",
    "lol": "ㅋㅋ",
    "wow": "와!",
    "sorry": "미안~",
    "gg": "굿게임!",
    "thumbs": "👍",
    "clap": "👏",
    "fire": "🔥",
    "cry": "😭",
    "think": "🤔",
    "cool": "😎",
}
CHAT_MAX = 40  # characters of one chat line
RATE_PER_SECOND = 0.5  # one every two seconds, sustained
RATE_BURST = 3.0
SHOW_MS = 3000  # how long a client shows a bubble (sent along so every client agrees)


@dataclass
class Social:
    """The host's table-talk settings (stored with the room, shown in ``lobby``)."""

    chat: bool = False  # free text (length-capped) for players
    spectator_reactions: bool = False  # spectators may send reactions
    spectator_chat: bool = False  # spectators may send free text (관전자 채팅), apart from players' chat

    def to_json(self) -> dict[str, Any]:
        return {"chat": self.chat, "spectatorReactions": self.spectator_reactions,
                "spectatorChat": self.spectator_chat}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> Social:
        """(a room stored before 관전자 채팅 existed has no ``spectatorChat``: off)"""
        if not data:
            return Social()
        return Social(bool(data.get("chat")), bool(data.get("spectatorReactions")),
                      bool(data.get("spectatorChat")))


class Throttle:
    """One token bucket per sender key (``burst`` at once, then ``rate`` per second); memory only."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last time)

    def allow(self, key: str, now: float | None = None) -> bool:
        t = time.monotonic() if now is None else now
        if key not in self.buckets and len(self.buckets) >= 256:  # spectators come and go: stay bounded
            self.buckets.clear()
        tokens, last = self.buckets.get(key, (self.burst, t))
        tokens = min(self.burst, tokens + max(0.0, t - last) * self.rate)
        if tokens < 1.0:
            self.buckets[key] = (tokens, t)
            return False
        self.buckets[key] = (tokens - 1.0, t)
        return True


def clean_chat(raw: str) -> str | None:
    """The chat line to send: NFC, control and format characters dropped, line breaks and runs of spaces
    made one space, trimmed, at most :data:`CHAT_MAX` characters; None when nothing is left."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", raw):
        cat = unicodedata.category(ch)
        if ch in "\t\r\n" or cat in ("Zl", "Zp"):
            out.append(" ")
        elif cat[0] != "C":
            out.append(ch)
    text = " ".join("".join(out).split())
    return text[:CHAT_MAX] or None


def reaction_msg(sender: str | None, reaction: str) -> dict[str, Any]:
    """``from``: the player id, or None for a spectator (shown at the table's edge, not over a seat)."""
    return {"type": "reaction", "from": sender, "reaction": reaction, "text": REACTIONS[reaction],
            "showMs": SHOW_MS}


def chat_msg(sender: str | None, text: str) -> dict[str, Any]:
    """``from``: the player id; a spectator's line has ``"from": null`` and ``"spectator": true``."""
    if sender is None:
        return {"type": "chat", "from": None, "spectator": True, "text": text, "showMs": SHOW_MS}
    return {"type": "chat", "from": sender, "text": text, "showMs": SHOW_MS}
