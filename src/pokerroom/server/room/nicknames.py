"""Nicknames that look like another member's are refused.

Why: the host kicks by name and players trust the names on the table, so "민수" must not be joinable as
"민수" with a zero-width space, "Admin" as Cyrillic "Аdmin", or "bob" as fullwidth "ｂｏｂ". We compare
*skeletons* in the spirit of Unicode TS #39 (confusable detection): NFKC (fullwidth and compatibility forms,
Hangul compatibility jamo), combining marks dropped, case folded, and a compact table of the Latin
look-alikes that matter in practice (Cyrillic and Greek letters, 0/O, 1/l/I/|, "rn"/"m", "vv"/"w").

No PyPI package: ``confusable-homoglyphs`` checks mixed scripts in one string rather than comparing two
strings, and the full confusables data (~6,000 mappings) is far more than a 12-character nickname in a
friends' room needs; the table below is small, reviewed and tested.
"""

from __future__ import annotations

import re
import unicodedata

# Upper- and lower-case look-alikes of Latin letters and digits -> the Latin letter they imitate.
_TABLE = str.maketrans({
    # Cyrillic
    "А": "a", "а": "a", "В": "b", "Е": "e", "е": "e", "Ё": "e", "ё": "e", "Ѕ": "s", "ѕ": "s", "І": "l",
    "і": "i", "Ї": "i", "ї": "i", "Ј": "j", "ј": "j", "К": "k", "к": "k", "М": "m", "м": "m", "Н": "h",
    "н": "h", "О": "o", "о": "o", "Р": "p", "р": "p", "С": "c", "с": "c", "Т": "t", "т": "t", "Х": "x",
    "х": "x", "У": "y", "у": "y", "Ү": "y", "ү": "y", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "Ӏ": "l",
    "ӏ": "l", "Ь": "b", "ь": "b", "ɡ": "g", "Ꮃ": "w", "Ԍ": "g", "Ԛ": "q", "Ԝ": "w",
    # Greek
    "Α": "a", "α": "a", "Β": "b", "β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "l", "ι": "i", "Κ": "k",
    "κ": "k", "Μ": "m", "Ν": "n", "ν": "v", "Ο": "o", "ο": "o", "Ρ": "p", "ρ": "p", "Τ": "t", "τ": "t",
    "Υ": "y", "υ": "u", "Χ": "x", "χ": "x", "ϲ": "c", "Ϲ": "c", "ϳ": "j",
    # Latin and digits that read as each other
    "0": "o", "O": "o", "1": "l", "I": "l", "|": "l", "ı": "i", "ǀ": "l", "ℓ": "l",
    # Hangul look-alikes of Latin/digits are not mapped: a Korean name is read as Korean.
})
_SEQUENCES = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def skeleton(nickname: str) -> str:
    """The form two nicknames share when a reader could not tell them apart."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", nickname))
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Mn", "Me", "Cf"))
    text = unicodedata.normalize("NFC", text)  # recompose Hangul syllables split by NFKD
    text = text.translate(_TABLE).casefold().translate(_TABLE)
    text = " ".join(text.split())
    for seq, same in _SEQUENCES:
        text = text.replace(seq, same)
    return text


def confusable_with(nickname: str, others: list[str]) -> str | None:
    """The first of ``others`` that ``nickname`` could be mistaken for (same skeleton), else None."""
    mine = skeleton(nickname)
    for other in others:
        if skeleton(other) == mine:
            return other
    return None


# Brackets that read as "(" or ")" once NFKC has folded the fullwidth ones; small capitals read as b, o, t.
_BRACKETS = str.maketrans({**dict.fromkeys("[{<〈《「『【〔⦅❨❪﴾⸨⟨", "("),
                           **dict.fromkeys("]}>〉》」』】〕⦆❩❫﴿⸩⟩", ")"), "ʙ": "b", "ᴏ": "o", "ᴛ": "t"})
_BOT_LABELS = ("(봇)", "(bot)")
_BOT_NAME = re.compile(r"봇\d*")  # the names the server gives bots: 봇 1, 봇 2, ...


def looks_like_bot(nickname: str) -> bool:
    """Does ``nickname`` read as a bot's: ending in the label the table puts after a bot's name ("(봇)"), in
    any look-alike spelling (fullwidth or other brackets, "(bot)", "(b0t)", compatibility jamo "ㅂㅗㅅ",
    spaces inside), or a bot's own default name ("봇 3")?

    Why: players trust the "(봇)" beside a name to know who is a program; a human called "민수 (봇)" beside
    the real bots is an impersonation like a look-alike of a member's name."""
    plain = "".join(unicodedata.normalize("NFKC", nickname).split())
    if _BOT_NAME.fullmatch(plain):
        return True
    text = "".join(skeleton(nickname.translate(_BRACKETS)).translate(_BRACKETS).split())
    text = text.replace("보\u1109", "봇")  # "ㅂㅗㅅ": NFKC joins ㅂㅗ, the ㅅ stays a leading consonant
    return text.endswith(_BOT_LABELS)
