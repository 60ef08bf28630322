"""Room codes and seat tokens.

Why: a room link is shared with friends, so its code only needs to be unguessable enough that strangers
cannot stumble into rooms (50 random bits from :mod:`secrets`). A seat token is the only proof that a
browser owns a seat, so it carries 256 random bits, is stored only as a SHA-256 digest (a copied database
does not hand out seats) and is compared in constant time with :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: 32 symbols without look-alikes (no 0/o, 1/l), so a code read aloud or typed survives.
CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10
TOKEN_BYTES = 32


def new_room_code() -> str:
    """A fresh room code: ``CODE_LENGTH`` symbols, 5 bits each."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_room_code(text: str) -> bool:
    """Cheap shape check so a junk path never reaches a lookup."""
    return len(text) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in text)


def new_seat_token() -> str:
    """A fresh seat token (256 bits, url-safe); only its digest is kept."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, digest: str) -> bool:
    """Constant-time check of a presented token against a stored digest."""
    return hmac.compare_digest(token_digest(token), digest)
