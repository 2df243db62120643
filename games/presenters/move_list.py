"""The move list as the game page and the replay say it (each move numbered, its player
named, the move in words beside its notation), and the takeback choices named from it."""

from django.utils.translation import gettext, gettext_lazy

from games import table as tbl
from games.boards import board_of
from games.models import Game
from games.selectors.history import move_history


def move_log(
    game: Game, table: tbl.Table, players: list[dict], names: list[str], viewer: int | None
) -> list[dict]:
    """The move list: each counting move numbered, its player named and the move said in
    words from the events it caused, with its notation beside it; the latest marked."""
    board = board_of(game.game_type)
    counting = {step.seq: step for step in table.steps}
    history = move_history(game, upto=table.last_seq)
    number = 0
    for entry in history:
        if entry["kind"] != "move":
            continue
        seat = entry["seat"]
        entry["player"] = names[seat] if seat < len(names) else str(seat + 1)
        entry["mine"] = seat == viewer
        step = counting.get(entry["seq"])
        if entry["voided"] or step is None:
            entry["words"] = gettext("%(player)s (taken back)") % {"player": entry["player"]}
            continue
        number += 1
        entry["number"] = number
        entry["words"] = board.describe(step.events, entry["player"])
    moves = [e for e in history if e["kind"] == "move" and not e["voided"]]
    if moves:
        moves[-1]["latest"] = True
    for entry in history:
        if entry["kind"] == "move" and entry["auto"] == "timeout" and entry["bot"]:
            entry["auto_text"] = gettext("played for them by %(bot)s: time ran out") % {
                "bot": entry["actor"]
            }
        elif entry["kind"] == "move" and entry["auto"]:
            entry["auto_text"] = AUTO_WORDS.get(entry["auto"], "")
        elif entry["kind"] == "move" and entry["planned"]:
            entry["auto_text"] = gettext("played from their plan")
    return history


AUTO_WORDS = {
    "timeout": gettext_lazy("played for them: time ran out"),
    "resigned": gettext_lazy("played for them: they resigned"),
    "moderator": gettext_lazy("played by a moderator"),
    "forced": gettext_lazy("the only possible move"),
}


def moves_after(point: int, log: list[dict], *, in_words: bool = True) -> list[str]:
    """The moves a takeback to ``point`` would take back, oldest first: in words with
    their notation, or in notation alone."""
    return [
        f"{entry['number']}. {entry['words']} ({entry['text']})"
        if in_words
        else f"{entry['number']}. {entry['text']}"
        for entry in log
        if entry["kind"] == "move" and not entry["voided"] and entry["seq"] > point
    ]


def takeback_choices(
    table: tbl.Table, points: tuple[int, ...], log: list[dict], viewer: int | None
) -> list[dict]:
    """The points one may ask to go back to, as a player names them ("before your move
    14: Ann took 3 red tiles from the centre"), each with the moves it would take back. The
    first one before a move of the viewer's own is chosen to begin with."""
    moves = {e["seq"]: e for e in log if e["kind"] == "move" and not e["voided"]}
    choices = []
    for point in points:
        first = next((step for step in table.steps if step.seq > point), None)
        entry = moves.get(first.seq) if first else None
        if entry is None:
            continue
        if entry["seat"] == viewer:
            # Translators: %(words)s is the move in words, with the player's own name.
            label = gettext("before your move %(number)s: %(words)s") % {
                "number": entry["number"],
                "words": entry["words"],
            }
        else:
            label = gettext("before %(player)s’s move %(number)s: %(words)s") % {
                "player": entry["player"],
                "number": entry["number"],
                "words": entry["words"],
            }
        choices.append(
            {
                "to_seq": point,
                "label": label,
                # In notation: each choice's label says its own move in words, and the
                # page must not grow with the square of the round's moves in words.
                "moves": moves_after(point, log, in_words=False),
                "mine": entry["seat"] == viewer,
            }
        )
    default = next((c for c in choices if c["mine"]), None)
    if default is not None:
        default["checked"] = True
    return choices
