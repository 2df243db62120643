"""The ``moderators`` group: staff in it may moderate games (issue 8)."""

from django.db import migrations


def create_group(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.get_or_create(name="moderators")


def remove_group(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.filter(name="moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_player_settings_chat_reports_clocks"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
