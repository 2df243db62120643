"""The database itself refuses to change history: triggers reject every UPDATE and DELETE
of an event row, on PostgreSQL and on SQLite alike."""

from django.db import migrations

MESSAGE = "events are append-only: history cannot be changed"

POSTGRESQL = {
    "install": [
        f"""
        CREATE FUNCTION events_event_refuse_change() RETURNS trigger AS $$
        BEGIN
            RAISE EXCEPTION '{MESSAGE} (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
        END
        $$ LANGUAGE plpgsql
        """,
        """
        CREATE TRIGGER events_event_append_only
        BEFORE UPDATE OR DELETE ON events_event
        FOR EACH ROW EXECUTE FUNCTION events_event_refuse_change()
        """,
    ],
    "remove": [
        "DROP TRIGGER IF EXISTS events_event_append_only ON events_event",
        "DROP FUNCTION IF EXISTS events_event_refuse_change()",
    ],
}

SQLITE = {
    "install": [
        f"""
        CREATE TRIGGER events_event_no_{operation.lower()}
        BEFORE {operation} ON events_event
        BEGIN SELECT RAISE(ABORT, '{MESSAGE} ({operation} refused)'); END
        """
        for operation in ("UPDATE", "DELETE")
    ],
    "remove": [
        f"DROP TRIGGER IF EXISTS events_event_no_{operation}" for operation in ("update", "delete")
    ],
}


def run(step: str):
    def apply(apps, schema_editor) -> None:
        statements = {"postgresql": POSTGRESQL, "sqlite": SQLITE}.get(
            schema_editor.connection.vendor
        )
        if statements is None:
            raise RuntimeError(f"no append-only triggers for {schema_editor.connection.vendor}")
        for sql in statements[step]:
            schema_editor.execute(sql, params=None)

    return apply


class Migration(migrations.Migration):
    dependencies = [("events", "0001_initial")]

    operations = [migrations.RunPython(run("install"), run("remove"))]
