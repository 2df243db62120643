"""The channels of ``games.notify``: each one is found by name and does all a channel must."""

import pytest

from games.notify.channels import Channel, channel, names


def test_a_channel_without_a_way_to_deliver_cannot_be_made():
    class Unfinished(Channel):
        name = "unfinished"

        def withdraw(self, **facts) -> int:
            return 0

    with pytest.raises(TypeError, match="deliver"):
        Unfinished()


@pytest.mark.parametrize("name", names())
def test_every_registered_channel_is_found_by_its_name(name):
    assert channel(name).name == name
