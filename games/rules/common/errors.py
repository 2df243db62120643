"""The two ways a command can fail, kept apart as python-chess does: text that cannot be
read at all (``InvalidNotation``) and a readable command that the rules forbid in this
position (``IllegalMove``).

Engines speak no language: each error carries a stable snake_case ``code`` (the same in
every language, for programs) and the facts as ``params`` (numbers, colour indexes, source
indexes, the accepted range…). The door renders the sentence in the reader's language
(``games.refusals``). ``str(error)`` is a plain developer-readable form for logs and tests
only — nothing a person reads may come from it."""

from typing import Any


def _developer_text(code: str, params: dict[str, Any]) -> str:
    if not params:
        return code
    return f"{code} ({', '.join(f'{name}={value!r}' for name, value in params.items())})"


class RulesError(Exception):
    """Base of every error a rules engine raises on bad input: ``code`` and ``params``."""

    code: str
    params: dict[str, Any]


class IllegalMove(RulesError):
    """A well-formed command that the rules do not allow in the current position."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(_developer_text(code, params))
        self.code = code
        self.params = params

    @property
    def reason(self) -> str:
        """The developer-readable form (logs, tests): never shown to a person."""
        return str(self)


class InvalidNotation(RulesError):
    """Text that is not a command in the game's notation; ``code`` and ``params`` say what
    would have been accepted."""

    def __init__(self, text: str, code: str, **params: Any) -> None:
        super().__init__(f"cannot read {text!r}: {_developer_text(code, params)}")
        self.text = text
        self.code = code
        self.params = params
