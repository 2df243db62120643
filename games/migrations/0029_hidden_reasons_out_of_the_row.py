"""A hidden chat message's row kept the moderator's reason in clear, a copy of what its
event keeps sealed (issue 52): a reason naming a player stayed readable in the row after
that player was forgotten. Hiding now keeps the reason sealed in the row as in the event
(``services.moderation.moderate_hide_message``); the clear copies of the messages hidden
before are emptied here — the event still holds each reason, sealed, and the admin's game
page reads it from there. Backwards is a no-op: the clear copies are not brought back."""

from django.db import migrations


def clear_copies_emptied(apps, schema_editor) -> None:
    ChatMessage = apps.get_model("games", "ChatMessage")
    ChatMessage.objects.exclude(hidden_reason="").exclude(
        hidden_reason__startswith="sealed:"
    ).update(hidden_reason="")


class Migration(migrations.Migration):
    dependencies = [("games", "0028_api_tokens")]

    operations = [migrations.RunPython(clear_copies_emptied, migrations.RunPython.noop)]
