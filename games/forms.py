"""The website's forms: they read what people type; the services decide what is allowed."""

import re

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from games import i18n
from games.boards import SIDES, lazy_title, title_of
from games.durations import days_text
from games.models import BotLevel, Game, GameResult
from games.notify.channels.email.addresses import account_identity
from games.registry import GAME_TYPES
from games.services.tables import TIME_CONTROL_DAYS

TIME_CONTROLS = (
    ("none", gettext_lazy("no time limit")),
    ("per_move", gettext_lazy("days per move")),
    ("bank", gettext_lazy("a bank of hours, topped up after each move")),
)
OPTION_LABELS = {"board": gettext_lazy("Board side"), "wall": gettext_lazy("Wall side")}
# The engines' option values as players read them (the rules reference spells "colored").
OPTION_VALUES = SIDES
# Whether a game counts for the ratings, by ``GameResult.Excluded.ruling``, said among its
# settings.
RATING_WORDS = {
    GameResult.Excluded.COUNTED: gettext_lazy("rated"),
    GameResult.Excluded.UNRATED: gettext_lazy("not rated"),
    GameResult.Excluded.BOT: gettext_lazy("not rated: games with computer players are not rated"),
}


def _players(count: int) -> str:
    return ngettext("%(count)s player", "%(count)s players", count) % {"count": count}


# Choices said in the reader's language when the form is shown, not when it is imported.
players_choice = lazy(_players, str)
days_choice = lazy(days_text, str)


def time_of_day(label) -> forms.CharField:
    """A time of day "HH:MM" (the browser's time picker); the services check it."""
    return forms.CharField(
        label=label,
        required=False,
        max_length=5,
        widget=forms.TimeInput(attrs={"type": "time", "step": 60}),
    )


class HoursFields(forms.Form):
    """A player's daily playing hours (issue 32): from, to."""

    hours_start = time_of_day(gettext_lazy("Playing hours from"))
    hours_end = time_of_day(gettext_lazy("to (before the start: past midnight)"))

    def hours_value(self) -> dict | None:
        """``{"start", "end"}`` as typed; ``None`` when either is left empty."""
        start, end = self.cleaned_data.get("hours_start"), self.cleaned_data.get("hours_end")
        return {"start": start, "end": end} if start and end else None


def option_field(slug: str, option: str) -> str:
    """The form field of one engine option of one game (``opt_azul_wall``)."""
    return f"opt_{slug.replace('-', '_')}_{option}"


class PreferencesForm(HoursFields):
    """The account page: the language and time zone everything is shown in, and the
    playing hours offered when taking a seat in a game with playing hours."""

    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        required=False,
        choices=[("", gettext_lazy("The language of my browser")), *settings.LANGUAGES],
    )
    time_zone = forms.ChoiceField(
        label=gettext_lazy("Time zone"),
        required=False,
        choices=lambda: [(name, name) for name in i18n.time_zone_names()],
    )


class EmailForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Your email address"), max_length=254)

    def clean_email(self) -> str:
        return account_identity(self.cleaned_data["email"])


class PasswordSignInForm(AuthenticationForm):
    """Django's password sign-in, looking the account up by ``account_identity``: the
    spelling its rate limit counts (``games.throttles.PASSWORD_TRIES``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The account is found by its email address, whatever Django calls the field.
        self.fields["username"].label = gettext_lazy("Your email address")

    def clean_username(self) -> str:
        return account_identity(self.cleaned_data["username"])


class AdminSignInForm(AdminAuthenticationForm):
    """The admin's password sign-in, read as ``PasswordSignInForm`` reads it."""

    clean_username = PasswordSignInForm.clean_username


class GameCreateForm(HoursFields):
    """Every game's options are fields; only the chosen game's count."""

    game = forms.ChoiceField(
        choices=[(slug, lazy_title(slug)) for slug in GAME_TYPES],
        label=pgettext_lazy("which game", "Game"),
    )
    players = forms.TypedChoiceField(
        choices=[(n, players_choice(n)) for n in (2, 3, 4)],
        coerce=int,
        initial=2,
        label=gettext_lazy("Players"),
    )
    time_control = forms.ChoiceField(
        choices=TIME_CONTROLS, initial="none", label=gettext_lazy("Kind")
    )
    days = forms.TypedChoiceField(
        choices=[(d, days_choice(d)) for d in TIME_CONTROL_DAYS],
        coerce=int,
        initial=3,
        required=False,
        label=gettext_lazy("Days per move"),
    )
    bank_hours = forms.IntegerField(
        min_value=1, initial=72, required=False, label=gettext_lazy("Hours each at the start")
    )
    increment_hours = forms.IntegerField(
        min_value=0, initial=12, required=False, label=gettext_lazy("Hours added after each move")
    )
    cap_hours = forms.IntegerField(
        min_value=1, initial=120, required=False, label=gettext_lazy("At most (hours)")
    )
    playing_hours = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Playing hours: each player's clock runs only during their chosen hours of the day"
        ),
    )
    self_undo = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Players may undo their own last move")
    )
    private = forms.BooleanField(
        required=False,
        label=gettext_lazy("Private: only the players see it, even once finished"),
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Rated: the result counts for the ratings"),
        help_text=gettext_lazy("Games with computer players are not rated."),
    )
    bots = forms.TypedChoiceField(
        choices=[(n, n) for n in (0, 1, 2, 3)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
        label=gettext_lazy("Computer players (the game starts at once when no seat is left open)"),
    )
    bot_level = forms.ChoiceField(
        choices=BotLevel.choices,
        initial=BotLevel.MEDIUM,
        required=False,
        label=gettext_lazy("Computer players' level"),
    )
    timeout_policy = forms.ChoiceField(
        choices=[
            (Game.TimeoutPolicy.DEFAULT_MOVE, gettext_lazy("the least wasteful move is played")),
            (Game.TimeoutPolicy.FORFEIT, gettext_lazy("the player forfeits")),
            (Game.TimeoutPolicy.BOT, gettext_lazy("a computer player plays the turn")),
        ],
        initial=Game.TimeoutPolicy.DEFAULT_MOVE,
        required=False,
        label=gettext_lazy("When a player's time runs out"),
    )
    timeout_bot = forms.ChoiceField(
        choices=BotLevel.choices,
        initial=BotLevel.MEDIUM,
        required=False,
        label=gettext_lazy("Level of the computer player for absent players"),
    )
    invite = forms.CharField(
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 2, "placeholder": "bob@example.com, carol@example.com"}
        ),
        label=gettext_lazy("Invite by email (the other seats stay open to anyone)"),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for slug, kind in GAME_TYPES.items():
            for option, allowed in kind.engine.OPTIONS.items():
                self.fields[option_field(slug, option)] = forms.ChoiceField(
                    choices=[(value, OPTION_VALUES.get(value, value)) for value in allowed],
                    required=False,
                    # Translators: a game's option on the new game form, "Azul: Wall side".
                    label=gettext("%(game)s: %(option)s")
                    % {
                        "game": title_of(slug),
                        "option": OPTION_LABELS.get(option, option),
                    },
                )

    def clean(self) -> dict:
        data = super().clean()
        players, bots = data.get("players"), data.get("bots") or 0
        if players and bots >= players:
            self.add_error(
                "bots",
                gettext(
                    "Too many computer players: in a game of %(players)s players one seat is "
                    "yours, so choose fewer than %(players)s."
                )
                % {"players": players},
            )
        return data

    def option_fields(self) -> dict:
        """Each game's option fields, by game (the page shows the chosen game's)."""
        return {
            slug: [self[option_field(slug, option)] for option in kind.engine.OPTIONS]
            for slug, kind in GAME_TYPES.items()
        }

    def game_options(self) -> dict:
        slug = self.cleaned_data["game"]
        return {
            option: self.cleaned_data.get(option_field(slug, option)) or allowed[0]
            for option, allowed in GAME_TYPES[slug].engine.OPTIONS.items()
        }

    def time_control_value(self) -> dict:
        data = self.cleaned_data
        match data["time_control"]:
            case "per_move":
                return {"kind": "per_move", "days": data.get("days") or 3}
            case "bank":
                return {
                    "kind": "bank",
                    "bank_hours": data.get("bank_hours"),
                    "increment_hours": data.get("increment_hours"),
                    "cap_hours": data.get("cap_hours"),
                }
        return {"kind": "none"}

    def unrated_despite_asking(self) -> bool:
        """Whether the creator asked for a rated game that ``GameResult.Excluded.ruling``
        leaves unrated (computer players chosen): the new game then says so."""
        data = self.cleaned_data
        ruling = GameResult.Excluded.ruling(
            rated=data["rated"], computer_players=data.get("bots") or 0
        )
        return data["rated"] and ruling != GameResult.Excluded.COUNTED

    def bot_levels(self) -> list[str]:
        level = self.cleaned_data.get("bot_level") or BotLevel.MEDIUM
        return [level] * (self.cleaned_data.get("bots") or 0)

    def timeout_policy_value(self) -> str:
        return self.cleaned_data.get("timeout_policy") or Game.TimeoutPolicy.DEFAULT_MOVE

    def timeout_bot_level(self) -> str:
        if self.timeout_policy_value() != Game.TimeoutPolicy.BOT:
            return ""
        return self.cleaned_data.get("timeout_bot") or BotLevel.MEDIUM

    def invited(self) -> list[str]:
        return [email for email in re.split(r"[\s,;]+", self.cleaned_data["invite"]) if email]


FORMATS = (
    ("swiss", gettext_lazy("Swiss: a fixed number of rounds, the leaders meet")),
    ("round_robin", gettext_lazy("Round robin: everyone meets everyone")),
    ("knockout", gettext_lazy("Knockout: two players a game, the winner goes on")),
)


class TournamentCreateForm(GameCreateForm):
    """A tournament's settings: the game's (options, players at each game, time control,
    rated) as for a game, and the tournament's own."""

    # What a tournament's games do not take from the new game form: undo is the table's
    # default, every game is public and has no invitation nor computer player, and an
    # absent player forfeits (``services.tournaments.TIMEOUT_POLICY``).
    NOT_FOR_TOURNAMENTS = (
        "self_undo",
        "private",
        "bots",
        "bot_level",
        "timeout_policy",
        "timeout_bot",
        "invite",
    )

    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    organiser_plays = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Play in it myself")
    )
    format = forms.ChoiceField(choices=FORMATS, initial="swiss", label=gettext_lazy("Format"))
    rounds = forms.IntegerField(
        min_value=1,
        max_value=50,
        initial=5,
        required=False,
        label=gettext_lazy("Rounds (Swiss only)"),
    )
    max_players = forms.IntegerField(
        min_value=2, max_value=1000, initial=16, label=gettext_lazy("At most this many players")
    )
    round_days = forms.IntegerField(
        min_value=0,
        max_value=365,
        initial=0,
        required=False,
        label=gettext_lazy("Days per round (0: no deadline)"),
    )
    entry_closes = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label=gettext_lazy("Registration closes and the tournament starts (optional)"),
    )
    public = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Listed: anyone may find and join it")
    )
    bots = forms.BooleanField(
        required=False, initial=False, label=gettext_lazy("Bots (programs) may enter too")
    )
    invited = forms.CharField(
        required=False,
        max_length=50000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy(
            "Not listed: only these email addresses may join (one per line; each is invited)"
        ),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in self.NOT_FOR_TOURNAMENTS:
            del self.fields[name]
        self.fields["players"].label = gettext_lazy("Players at each game")

    def settings(self) -> dict:
        """The keyword arguments of ``services.tournaments.tournament_create`` but the organiser."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "format": data["format"],
            "game": data["game"],
            "per_game": data["players"],
            "rounds": (data.get("rounds") or 0) if data["format"] == "swiss" else 0,
            "options": self.game_options(),
            "time_control": self.time_control_value(),
            "rated": data["rated"],
            "public": data["public"],
            "max_players": data["max_players"],
            "entry_closes": data.get("entry_closes"),
            "round_days": data.get("round_days") or 0,
            "invited": data.get("invited", "").replace(",", " ").split(),
            "organiser_plays": data["organiser_plays"],
            "bots": data.get("bots", False),
        }


class MoveForm(forms.Form):
    """A move in notation: picked from the list of legal moves, or typed."""

    move = forms.CharField(required=False, max_length=200)
    typed = forms.CharField(required=False, max_length=200, label=gettext_lazy("or type it"))
    expected_seq = forms.IntegerField(min_value=0)

    def notation(self) -> str:
        return (self.cleaned_data.get("typed") or self.cleaned_data.get("move") or "").strip()


class PlanForm(forms.Form):
    """A plan (conditional moves): lines, one a row with moves separated by ``;``, and a
    move for the next turn, with the seq the page was showing."""

    lines = forms.CharField(required=False, max_length=20000, widget=forms.Textarea)
    next_move = forms.CharField(required=False, max_length=200)
    expected_seq = forms.IntegerField(min_value=0)


class PlanBoardForm(forms.Form):
    """A line being built on the analysis board: the moves so far (separated by ``;``), the
    move picked next (from the list, or typed) and the seq the line was started on."""

    line = forms.CharField(required=False, max_length=5000)
    move = forms.CharField(required=False, max_length=200)
    typed = forms.CharField(required=False, max_length=200)
    seq = forms.IntegerField(required=False, min_value=0)

    def moves(self) -> list[str]:
        steps = [step.strip() for step in self.cleaned_data["line"].split(";")]
        picked = (self.cleaned_data["typed"] or self.cleaned_data["move"]).strip()
        return [step for step in [*steps, picked] if step]


class PlanDeleteForm(forms.Form):
    """The whole plan, or one line of it (``line``, from 0)."""

    line = forms.IntegerField(required=False, min_value=0, max_value=1000)


class TakebackRequestForm(forms.Form):
    to_seq = forms.IntegerField(min_value=0)


class TakebackAnswerForm(forms.Form):
    request = forms.IntegerField(min_value=1)
    accept = forms.TypedChoiceField(
        choices=[("yes", gettext_lazy("accept")), ("no", gettext_lazy("decline"))],
        coerce=lambda v: v == "yes",
    )
