"""Nicknames that look like another member's are refused.

Why: the host kicks by name and players trust the names on the table, so "민수" must not be joinable as
"민수" with a zero-width space, "Admin" as Cyrillic "Аdmin", or "bob" as fullwidth "ｂｏｂ". We compare
*skeletons* in the spirit of Unicode TS #39 (confusable detection): NFKC (fullwidth and compatibility forms,
Hangul compatibility jamo), combining marks dropped, case folded, a small reviewed table of the look-alikes
that matter most (Cyrillic and Greek letters, 0/O, 1/l/I/|, "rn"/"m", "vv"/"w"), then every other
character through Unicode's confusables data (the ``confusables`` package: confusables.txt, ~10,000
mappings): a non-ASCII character that the data says reads as an ASCII letter or digit becomes that letter
(Armenian "օ", Cherokee "Ꭺ", Latin "ɑ", ...). Plain ASCII is left as typed: the data's depth-2 pairs such as
"f"/"s" or "3"/"e" would make ordinary names collide ("fam" and "sam" are two people). Hangul: a leading
consonant jamo after an open syllable is read as that syllable's final consonant (the data maps each
choseong to its jongseong), so "ㅁㅣㄴㅅㅜ" reads as "민수"; Hangul is never mapped to Latin.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import confusables

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


_FIRST_SYLLABLE, _LAST_SYLLABLE = 0xAC00, 0xD7A3
_CHOSEONG = range(0x1100, 0x1113)  # the modern leading consonants
_JONGSEONG = range(0x11A8, 0x11C3)  # the modern final consonants


@functools.lru_cache(maxsize=4096)
def _look_alike(ch: str) -> str:
    """The ASCII letter (else digit) Unicode's confusables data says ``ch`` reads as; ``ch`` itself for
    ASCII and for what reads as no ASCII character."""
    if ch.isascii():
        return ch
    forms = {form.casefold().translate(_TABLE) for form in confusables.confusable_characters(ch) or ()
             if len(form) == 1 and form.isascii() and form.isalnum()}
    letters = sorted(form for form in forms if form.isalpha())
    picked = letters or sorted(forms)
    return picked[0] if picked else ch


@functools.lru_cache(maxsize=64)
def _final_of(choseong: str) -> str | None:
    """The final consonant (jongseong) the confusables data pairs with a leading one, if any."""
    for form in confusables.confusable_characters(choseong) or ():
        if len(form) == 1 and ord(form) in _JONGSEONG:
            return str(form)
    return None


def _close_syllables(text: str) -> str:
    """A leading consonant jamo after a syllable without a final becomes its final ("미ᄂ수" -> "민수")."""
    out: list[str] = []
    for ch in text:
        prev = out[-1] if out else ""
        if (ord(ch) in _CHOSEONG and prev and _FIRST_SYLLABLE <= ord(prev) <= _LAST_SYLLABLE
                and (ord(prev) - _FIRST_SYLLABLE) % 28 == 0):
            final = _final_of(ch)
            if final is not None:
                out[-1] = chr(ord(prev) + ord(final) - _JONGSEONG.start + 1)
                continue
        out.append(ch)
    return "".join(out)


def skeleton(nickname: str) -> str:
    """The form two nicknames share when a reader could not tell them apart."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", nickname))
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Mn", "Me", "Cf"))
    text = unicodedata.normalize("NFC", text)  # recompose Hangul syllables split by NFKD
    text = _close_syllables(text)
    text = text.translate(_TABLE).casefold().translate(_TABLE)
    text = "".join(_look_alike(ch) for ch in text)
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
