"""The Django admin as the moderators' door (issue 8). Games are read-only here; every act
goes through a service that appends an event with the moderator as actor and a reason.
Only staff in the ``moderators`` group get in (``selectors.access.is_moderator``)."""

import json
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from events import store
from games import throttles
from games.errors import ServiceError
from games.forms import AdminSignInForm
from games.mail import selectors as mail_selectors
from games.models import BotLevel, ChatMessage, Game, Outbox, PushDelivery, Report, Seat
from games.selectors.access import is_moderator
from games.selectors.moves import public_event
from games.services.closing import account_close
from games.services.moderation import (
    hidden_reason_of,
    moderate_abort,
    moderate_default_move,
    moderate_extend_deadline,
    moderate_hide_message,
    moderate_pause,
    moderate_replace_seat,
    moderate_replace_seat_bot,
    moderate_resume,
    moderate_revert,
    report_close,
    user_reinstate,
    user_suspend,
)

User = get_user_model()


class ModeratorsOnly:
    """Admin pages for moderators; read-only: changes go through the moderation forms."""

    def has_module_permission(self, request) -> bool:
        return is_moderator(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return is_moderator(request.user)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class StaleFilter(admin.SimpleListFilter):
    title = "no move for"
    parameter_name = "stale_days"

    def lookups(self, request, model_admin):
        return [(days, f"{days}+ days") for days in ("1", "3", "7", "14", "30")]

    def queryset(self, request, queryset):
        if self.value() in {"1", "3", "7", "14", "30"}:
            since = timezone.now() - timedelta(days=int(self.value()))
            return queryset.filter(status=Game.Status.ACTIVE, last_move_at__lt=since)
        return queryset


class SeatInline(ModeratorsOnly, admin.TabularInline):
    model = Seat
    fields = ("position", "user", "bot", "invited_email", "status", "joined_at")
    readonly_fields = fields
    extra = 0


class ModerationForm(forms.Form):
    ACTIONS = [
        ("pause", _("Pause the clocks")),
        ("resume", _("Resume the clocks")),
        ("extend_deadline", _("Extend the deadline (hours)")),
        ("default_move", _("Play the default move for the seat to move")),
        ("replace_seat", _("Replace a seat by another user (seat, email)")),
        ("replace_seat_bot", _("Replace a seat by a computer player (seat, level)")),
        ("revert", _("Revert the game to event N (voids the moves after it)")),
        ("abort", _("Abort the game")),
    ]
    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS)
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text=_("Recorded in the game's history for everyone to see."),
    )
    hours = forms.IntegerField(label=_("Hours"), required=False, min_value=1, max_value=720)
    seat = forms.IntegerField(label=_("Seat"), required=False, min_value=0, max_value=3)
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("The user taking over the seat.")
    )
    level = forms.ChoiceField(
        label=_("Level"),
        required=False,
        choices=[("", "---"), *BotLevel.choices],
        help_text=_("The computer player taking over the seat."),
    )
    # Translators: N is the number of an event in the game's log.
    to_seq = forms.IntegerField(required=False, min_value=1, label=_("Event N"))

    REQUIRED = {
        "extend_deadline": ["hours"],
        "replace_seat": ["seat", "email"],
        "replace_seat_bot": ["seat", "level"],
        "revert": ["to_seq"],
    }

    def clean(self):
        data = super().clean()
        for name in self.REQUIRED.get(data.get("action"), []):
            if data.get(name) in (None, ""):
                self.add_error(name, gettext("The chosen action needs this field."))
        if data.get("action") == "replace_seat" and data.get("email"):
            data["user"] = User.objects.filter(email__iexact=data["email"]).first()
            if data["user"] is None:
                self.add_error("email", gettext("No user has this address."))
        return data


def moderate(game: Game, moderator, data: dict) -> None:
    """Call the one service the chosen action names."""
    common = {"game": game, "moderator": moderator, "reason": data["reason"]}
    match data["action"]:
        case "pause":
            moderate_pause(**common)
        case "resume":
            moderate_resume(**common)
        case "extend_deadline":
            moderate_extend_deadline(**common, hours=data["hours"])
        case "default_move":
            moderate_default_move(**common)
        case "replace_seat":
            moderate_replace_seat(**common, seat=data["seat"], user=data["user"])
        case "replace_seat_bot":
            moderate_replace_seat_bot(**common, seat=data["seat"], level=data["level"])
        case "revert":
            moderate_revert(**common, to_seq=data["to_seq"])
        case "abort":
            moderate_abort(**common)


@admin.register(Game)
class GameAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = (
        "id",
        "game_type",
        "status",
        "players",
        "to_move",
        "last_move_at",
        "paused_at",
        "deadline",
    )
    list_filter = ("game_type", "status", StaleFilter)
    search_fields = ("seats__user__email", "seats__invited_email")
    inlines = [SeatInline]
    readonly_fields = (
        "game_type",
        "options",
        "players",
        "status",
        "time_control",
        "timeout_policy",
        "timeout_bot",
        "self_undo",
        "private",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
        "last_seq",
        "to_move",
        "deadline",
        "paused_at",
        "last_move_at",
        "scores",
        "winners",
        "conditional_moves",
        "moderation",
        "event_log",
    )
    fields = readonly_fields
    change_form_template = "admin/games/game/change_form.html"

    def get_search_results(self, request, queryset, search_term):
        results, _ = super().get_search_results(request, queryset, search_term)
        return results.distinct(), False

    @admin.display(description=_("Has conditional moves"), boolean=True)
    def conditional_moves(self, game: Game) -> bool:
        """Whether a player keeps a plan for the game: yes or no, never the plan (issue 32:
        a plan is its player's alone)."""
        return game.plans.exists()

    @admin.display(description=_("Moderate"))
    def moderation(self, game: Game):
        if game.status != Game.Status.ACTIVE:
            return gettext("Only a game in play can be moderated.")
        url = reverse("admin:games_game_moderate", args=[game.pk])
        return format_html(
            '<a class="button" href="{}">{}</a>', url, gettext("Moderate this game…")
        )

    @admin.display(description=_("Event log"))
    def event_log(self, game: Game):
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td>"
            "</tr>",
            (
                (
                    e["seq"],
                    e["type"],
                    e["actor"],
                    e["reason"],
                    e["recorded_at"][:19],
                    json.dumps(e["data"])[:300],
                )
                for e in map(public_event, store.load(game.stream))
            ),
        )
        return format_html(
            "<table><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th>"
            "<th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table>",
            pgettext_lazy("event log column", "event"),
            pgettext_lazy("event log column", "actor"),
            pgettext_lazy("event log column", "reason"),
            pgettext_lazy("event log column", "time"),
            pgettext_lazy("event log column", "data"),
            rows,
        )

    def get_urls(self):
        view = self.admin_site.admin_view(self.moderate_view)
        return [
            path("<int:game_id>/moderate/", view, name="games_game_moderate"),
            *super().get_urls(),
        ]

    def moderate_view(self, request, game_id: int):
        if not is_moderator(request.user):
            raise PermissionDenied
        game = get_object_or_404(Game, pk=game_id)
        form = ModerationForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                moderate(game, request.user, form.cleaned_data)
            except ServiceError as refused:
                form.add_error(None, refused.message)
            else:
                done = dict(ModerationForm.ACTIONS)[form.cleaned_data["action"]]
                messages.success(request, gettext("Recorded: %(action)s.") % {"action": done})
                return redirect("admin:games_game_change", game.pk)
        context = {
            **self.admin_site.each_context(request),
            "game": game,
            "form": form,
            "title": gettext("Moderate %(game)s") % {"game": game},
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/game/moderate.html", context)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )


@admin.register(ChatMessage)
class ChatMessageAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("id", "game", "author", "created_at", "hidden_at", "text")
    list_filter = ("hidden_at",)
    search_fields = ("text", "author__email")
    readonly_fields = ("game", "author", "text", "created_at", "hidden_at", "why_hidden", "hide")
    fields = readonly_fields

    @admin.display(description=_("Why it was hidden"))
    def why_hidden(self, message: ChatMessage) -> str:
        return hidden_reason_of(message)

    @admin.display(description=_("Hide"))
    def hide(self, message: ChatMessage):
        if message.hidden_at:
            return gettext("Hidden.")
        url = reverse("admin:games_chatmessage_hide", args=[message.pk])
        return format_html('<a class="button" href="{}">{}</a>', url, gettext("Hide this message…"))

    def get_urls(self):
        view = self.admin_site.admin_view(self.hide_view)
        return [
            path("<int:message_id>/hide/", view, name="games_chatmessage_hide"),
            *super().get_urls(),
        ]

    def hide_view(self, request, message_id: int):
        if not is_moderator(request.user):
            raise PermissionDenied
        message = get_object_or_404(ChatMessage, pk=message_id)
        form = ReasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                moderate_hide_message(
                    message=message, moderator=request.user, reason=form.cleaned_data["reason"]
                )
            except ServiceError as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(request, gettext("The message is hidden."))
                return redirect("admin:games_chatmessage_change", message.pk)
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": gettext("Hide a message in %(game)s") % {"game": message.game},
            "subject": message.text,
        }
        return TemplateResponse(request, "admin/games/reason.html", context)


@admin.register(Report)
class ReportAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("id", "status", "game_link", "message", "reporter", "reason", "created_at")
    list_filter = ("status",)
    readonly_fields = (
        "game_link",
        "message",
        "reporter",
        "reason",
        "status",
        "created_at",
        "handled_by",
        "handled_at",
    )
    fields = readonly_fields
    actions = ["mark_handled", "mark_dismissed"]

    def has_moderate_permission(self, request) -> bool:
        return is_moderator(request.user)

    @admin.display(description=pgettext_lazy("report column", "game"))
    def game_link(self, report: Report):
        url = reverse("admin:games_game_change", args=[report.game_id])
        return format_html('<a href="{}">{}</a>', url, report.game)

    def _close(self, request, queryset, status: str) -> None:
        for report in queryset:
            report_close(report=report, moderator=request.user, status=status)
        count = queryset.count()
        label = Report.Status(status).label
        # Translators: %(status)s is a report's status, e.g. "handled" or "dismissed".
        self.message_user(
            request,
            ngettext(
                "%(count)s report marked %(status)s.",
                "%(count)s reports marked %(status)s.",
                count,
            )
            % {"count": count, "status": label},
        )

    @admin.action(description=_("Mark handled"), permissions=["moderate"])
    def mark_handled(self, request, queryset):
        self._close(request, queryset, Report.Status.HANDLED)

    @admin.action(description=_("Dismiss"), permissions=["moderate"])
    def mark_dismissed(self, request, queryset):
        self._close(request, queryset, Report.Status.DISMISSED)


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Django's user admin, plus suspending and reinstating with a reason."""

    # Its own name: a template at Django's path would extend itself (a 500 on every page).
    change_form_template = "admin/games/user_change_form.html"

    def get_urls(self):
        view = self.admin_site.admin_view(self.suspension_view)
        closing = self.admin_site.admin_view(self.closing_view)
        return [
            path("<int:user_id>/suspension/", view, name="auth_user_suspension"),
            path("<int:user_id>/close/", closing, name="auth_user_close"),
            *super().get_urls(),
        ]

    def closing_view(self, request, user_id: int):
        """Close an account and forget its person (issue 45), with a reason: an event of
        the account's stream, as every moderator's act is."""
        if not (is_moderator(request.user) or request.user.is_superuser):
            raise PermissionDenied
        player = get_object_or_404(User, pk=user_id)
        if player.pk == request.user.pk:
            # One's own account closes with the proof its page asks for (issue 52).
            return redirect("account-close")
        form = ReasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                account_close(user=player, by=request.user, reason=form.cleaned_data["reason"])
            except ServiceError as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(
                    request, gettext("The account is closed and its person's data erased.")
                )
                return redirect("admin:auth_user_change", player.pk)
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": gettext("Close the account of %(email)s and erase their data")
            % {"email": player.email},
            "subject": gettext("Close and erase"),
        }
        return TemplateResponse(request, "admin/games/reason.html", context)

    def suspension_view(self, request, user_id: int):
        if not is_moderator(request.user):
            raise PermissionDenied
        player = get_object_or_404(User, pk=user_id)
        form = ReasonForm(request.POST or None)
        suspend = player.is_active
        if request.method == "POST" and form.is_valid():
            change = user_suspend if suspend else user_reinstate
            try:
                change(user=player, moderator=request.user, reason=form.cleaned_data["reason"])
            except ServiceError as refused:
                form.add_error(None, refused.message)
            else:
                done = (
                    gettext("%(email)s is suspended.")
                    if suspend
                    else gettext("%(email)s is reinstated.")
                )
                messages.success(request, done % {"email": player.email})
                return redirect("admin:auth_user_change", player.pk)
        title = gettext("Suspend %(email)s") if suspend else gettext("Reinstate %(email)s")
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": title % {"email": player.email},
            "subject": gettext("Suspend") if suspend else gettext("Reinstate"),
        }
        return TemplateResponse(request, "admin/games/reason.html", context)


class DeliveryFilter(admin.SimpleListFilter):
    """Where an email stands; "in doubt" are those the operator must check by hand."""

    title = _("delivery")
    parameter_name = "delivery"

    def lookups(self, request, model_admin):
        return [
            ("in_doubt", gettext("in doubt (may or may not have gone out)")),
            ("pending", gettext("waiting to be sent")),
            ("sent", pgettext_lazy("email delivery", "sent")),
            ("cancelled", gettext("not sent (skipped or given up)")),
        ]

    def queryset(self, request, queryset):
        match self.value():
            case "in_doubt":
                return queryset.filter(pk__in=mail_selectors.outbox_in_doubt().values("pk"))
            case "pending":
                return queryset.filter(sent_at__isnull=True, cancelled_at__isnull=True)
            case "sent":
                return queryset.filter(sent_at__isnull=False)
            case "cancelled":
                return queryset.filter(cancelled_at__isnull=False, in_doubt_at__isnull=True)
        return queryset


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    """The emails, for the site's operators (superusers): read-only. Rows in doubt were
    handed to the mail server without an answer; check its log before sending again."""

    list_display = (
        "id",
        "kind",
        "recipient",
        "game",
        "created_at",
        "sent_at",
        "in_doubt_at",
        "attempts",
        "last_error",
    )
    list_filter = (DeliveryFilter, "kind")
    search_fields = ("recipient", "message_id")
    readonly_fields = [field.name for field in Outbox._meta.fields]

    def has_module_permission(self, request) -> bool:
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PushDelivery)
class PushDeliveryAdmin(OutboxAdmin):
    """The pushes, for the site's operators (superusers): read-only, like the emails. A
    push lost with its worker is in doubt (``in_doubt_at``), cancelled, and its last error
    says so."""

    list_display = (
        "id",
        "kind",
        "subscription",
        "game",
        "created_at",
        "sent_at",
        "cancelled_at",
        "in_doubt_at",
        "attempts",
        "last_error",
    )
    list_filter = ("kind",)
    search_fields = ("subscription__user__email", "subscription__endpoint")
    readonly_fields = [field.name for field in PushDelivery._meta.fields]


# The admin's sign-in is a password door like /signin/password/: the same limits, counted
# per account as that account is looked up.
admin.site.login_form = AdminSignInForm
admin.site.login = throttles.throttled(*throttles.PASSWORD_TRIES)(admin.site.login)
