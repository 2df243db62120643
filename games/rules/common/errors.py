"""The two ways a command can fail, kept apart as python-chess does: text that cannot be
read at all (``InvalidNotation``) and a readable command that the rules forbid in this
position (``IllegalMove``). Both say what would have been accepted."""


class RulesError(Exception):
    """Base of every error a rules engine raises on bad input."""


class IllegalMove(RulesError):
    """A well-formed command that the rules do not allow in the current position."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidNotation(RulesError):
    """Text that is not a command in the game's notation; ``expected`` says what is."""

    def __init__(self, text: str, expected: str) -> None:
        super().__init__(f"cannot read {text!r}: expected {expected}")
        self.text = text
        self.expected = expected
