"""Staff can read events in the admin but never add, change or delete one."""

import pytest

from events import store
from events.models import Event
from events.store import NewEvent


@pytest.fixture
def staff_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root@example.com", "root@example.com", "x")
    client.force_login(admin)
    return client


@pytest.mark.django_db
def test_admin_lists_events_read_only(staff_client):
    store.append("game-1", 0, [NewEvent("Started")], actor="system")
    pk = Event.objects.get().pk
    listing = staff_client.get("/admin/events/event/")
    assert listing.status_code == 200 and b"Started" in listing.content
    assert staff_client.get(f"/admin/events/event/{pk}/change/").status_code == 200
    assert staff_client.get("/admin/events/event/add/").status_code == 403
    assert (
        staff_client.post(f"/admin/events/event/{pk}/delete/", {"post": "yes"}).status_code == 403
    )
    staff_client.post(f"/admin/events/event/{pk}/change/", {"type": "Forged"})
    assert Event.objects.get().type == "Started"
