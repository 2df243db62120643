"""Creates the demo users (idempotent) and prints their logins (``make run`` prints them
again at the end of its banner, ``azulsite/devrun.py``)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from games.selectors.access import MODERATORS_GROUP

DEMO_PASSWORD = "azul-demo"
DEMO_USERS = [
    ("alice@example.com", "Alice", True),
    ("bob@example.com", "Bob", False),
    ("carol@example.com", "Carol", False),
]


class Command(BaseCommand):
    help = (
        "Create the demo users alice, bob and carol (alice: staff and moderator) and print "
        "their logins."
    )

    def handle(self, *args, **options) -> None:
        User = get_user_model()
        moderators, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
        for email, name, staff in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=email, defaults={"email": email, "first_name": name}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.is_staff = user.is_superuser = staff
                user.save()
            if staff:
                # The operator of a fresh site sees game moderation in the admin at once.
                user.groups.add(moderators)
        if options["verbosity"]:
            self.stdout.write("\n".join(logins()))


def logins() -> list[str]:
    """The demo users' logins, one line each after a heading."""
    return [f"Demo logins (password for each: {DEMO_PASSWORD}):"] + [
        f"  {email}{'  (admin and moderator)' if staff else ''}" for email, _, staff in DEMO_USERS
    ]
