"""The one error type for a refused action, shared by every layer.

A refusal always carries a stable machine ``code`` and the Korean ``message`` a player sees (poker.md §8.2
words them), so no layer ever rejects silently. Raising leaves the state untouched: callers validate before
they mutate.
"""

from __future__ import annotations


class Rejected(Exception):
    """An action was refused. ``code`` is stable (snake_case); ``message`` is the Korean reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}

    def __repr__(self) -> str:
        return f"Rejected({self.code!r}, {self.message!r})"


# Messages the spec words (§8.2), and a few more in the same voice. Keep codes stable: clients key on them.
NOT_YOUR_TURN = ("not_your_turn", "지금은 내 차례가 아니에요")
ALREADY_FOLDED = ("already_folded", "이번 판에서 이미 다이했어요")
CANNOT_CHECK = ("cannot_check", "콜 금액이 있어서 체크할 수 없어요")
CANNOT_RAISE = ("cannot_raise", "이번 라운드에서는 더 올릴 수 없어요(콜 또는 다이만 가능)")
ALREADY_CHOSE = ("already_chose", "이미 골랐어요")


def min_raise_message(amount: int) -> tuple[str, str]:
    """("raise_too_small", "최소 레이즈는 50이에요")."""
    return ("raise_too_small", f"최소 레이즈는 {amount:,}이에요")


def reject(pair: tuple[str, str]) -> Rejected:
    """Build a :class:`Rejected` from one of the (code, message) pairs above."""
    return Rejected(pair[0], pair[1])
