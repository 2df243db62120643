"""The archive's search form: it reads what people type; the selector searches."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.boards import SIDES as SIDE_WORDS
from games.boards import lazy_title
from games.ratings.selectors import RESULTS, ArchiveQuery
from games.registry import GAME_TYPES

SIDES = sorted(
    {value for kind in GAME_TYPES.values() for o in kind.engine.OPTIONS.values() for value in o}
)
RESULT_LABELS = {"won": _("won"), "lost": _("lost"), "shared": _("shared victory")}


class ArchiveForm(forms.Form):
    """Every field is optional; ``won`` and ``lost`` are about the chosen player (or you)."""

    player = forms.CharField(required=False, max_length=150, label=_("Player"))
    game = forms.ChoiceField(
        required=False,
        choices=[("", _("any game"))] + [(slug, lazy_title(slug)) for slug in GAME_TYPES],
        label=_("Game"),
    )
    side = forms.ChoiceField(
        required=False,
        choices=[("", _("any side"))] + [(s, SIDE_WORDS.get(s, s)) for s in SIDES],
        label=_("Board side"),
    )
    players = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("any number"))] + [(n, n) for n in (2, 3, 4)],
        label=_("Players"),
    )
    date_from = forms.DateField(
        required=False, label=_("Ended from"), widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label=_("to"), widget=forms.DateInput(attrs={"type": "date"})
    )
    result = forms.ChoiceField(
        required=False,
        choices=[("", _("any result"))] + [(r, RESULT_LABELS[r]) for r in RESULTS],
        label=_("Result"),
    )
    rated = forms.ChoiceField(
        required=False,
        choices=[("", _("rated or not")), ("yes", _("rated")), ("no", _("unrated"))],
        label=_("Rated"),
    )

    def __init__(self, *args, viewer=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.viewer = viewer

    def clean(self) -> dict:
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date must not be before the start date."))
        signed_in = getattr(self.viewer, "is_authenticated", False)
        if data.get("result") in ("won", "lost") and not data.get("player") and not signed_in:
            self.add_error(
                "result", _("Name a player (or sign in) to search for games won or lost.")
            )
        return data

    def query(self) -> ArchiveQuery:
        data = self.cleaned_data
        mine = data.get("result") in ("won", "lost") and not data.get("player")
        return ArchiveQuery(
            player=self.viewer.pk if mine else None,
            player_name=data.get("player") or "",
            game=data.get("game") or "",
            side=data.get("side") or "",
            players=data.get("players"),
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            result=data.get("result") or "",
            rated={"yes": True, "no": False}.get(data.get("rated") or ""),
        )
