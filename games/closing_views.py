"""The page where a player closes their account and is forgotten (issue 45). Closing is
final, so the page asks for proof that the person at the keyboard owns the account: the
password, or, for an account that signs in by emailed links, a sign-in of this very
session within the last ``RECENT_SIGN_IN`` (the page offers the link)."""

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from games import throttles
from games.errors import ServiceError
from games.services.closing import account_close

RECENT_SIGN_IN = timedelta(minutes=15)
SIGNED_IN_AT = "signed_in_at"


class CloseForm(forms.Form):
    """What closing asks: that the player understands, and their password if they have
    one."""

    understood = forms.BooleanField(
        label=gettext_lazy("I understand that this cannot be undone."),
        error_messages={"required": gettext_lazy("Tick the box to say you understand.")},
    )
    password = forms.CharField(
        label=gettext_lazy("Your password"), widget=forms.PasswordInput, required=False
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        if user.has_usable_password():
            self.fields["password"].required = True
        else:
            del self.fields["password"]

    def clean_password(self) -> str:
        password = self.cleaned_data.get("password", "")
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."))
        return password


def remember_sign_in(sender, request, user, **kwargs) -> None:
    """On every sign-in (Django's ``user_logged_in``, connected in ``games.apps``): when,
    in the session signed in — not on the account, which every session shares (issue 52:
    an old session on a shared computer must not count its owner's sign-in elsewhere)."""
    if request is not None and hasattr(request, "session"):
        request.session[SIGNED_IN_AT] = timezone.now().timestamp()


def _confirmed_recently(request: HttpRequest) -> bool:
    """Whether this session signed in lately enough to close without a password."""
    signed_in_at = request.session.get(SIGNED_IN_AT)
    if not isinstance(signed_in_at, int | float):
        return False
    return signed_in_at > (timezone.now() - RECENT_SIGN_IN).timestamp()


@login_required
@require_http_methods(["GET", "POST"])
def account_close_page(request: HttpRequest) -> HttpResponse:
    """What closing does, and the form that does it."""
    user = request.user
    needs_link = not user.has_usable_password() and not _confirmed_recently(request)
    form = CloseForm(request.POST or None, user=user)
    guessing = request.method == "POST" and "password" in form.fields
    if guessing and (refused := throttles.refusal(request, *throttles.CLOSING_PASSWORD_TRIES)):
        return refused
    if request.method == "POST" and not needs_link and form.is_valid():
        try:
            account_close(user=user)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            logout(request)
            messages.success(
                request, _("Your account is closed and your data erased. Thank you for playing.")
            )
            return redirect("/")
    context = {"form": form, "needs_link": needs_link, "email": user.email}
    return render(request, "account_close.html", context, status=400 if form.errors else 200)
