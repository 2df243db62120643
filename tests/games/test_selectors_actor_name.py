"""A seat's actor in words: profiles and the archive name a computer player as people do."""

from games.selectors.names import actor_name


def test_a_computer_player_is_named_with_its_level_and_other_actors_as_stored():
    assert actor_name("bot:easy") == "Computer (easy)"
    assert actor_name("bot:nonsense") == "bot:nonsense"
    assert actor_name("user:7") == "user:7"
