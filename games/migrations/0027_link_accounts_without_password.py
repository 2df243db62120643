"""Accounts made by an emailed sign-in link were stored with the password ``''``, which
Django counts as usable: the closing page asked such a person for a password that never
existed (issue 52). Sign-up now stores an unusable password; this gives every account made
before it one too (``!`` and random characters, as ``make_password(None)`` writes it), so
that ``has_usable_password`` tells the truth everywhere, the admin included. Nothing signs
in with ``''`` (Django's ``check_password`` refuses it), so nothing is lost; backwards is a
no-op."""

from django.contrib.auth.hashers import make_password
from django.db import migrations


def unusable_where_empty(apps, schema_editor) -> None:
    User = apps.get_model("auth", "User")
    for pk in User.objects.filter(password="").values_list("pk", flat=True).iterator():
        User.objects.filter(pk=pk).update(password=make_password(None))


class Migration(migrations.Migration):
    dependencies = [("games", "0026_one_delivery_table")]

    operations = [migrations.RunPython(unusable_where_empty, migrations.RunPython.noop)]
