"""A closed account's chat messages (issue 53): their text is erased, and the others'
chat says the message was removed instead of showing an empty "Deleted player:" line."""

import re

import pytest
from django.test import Client

from games.services.chat import chat_post
from games.services.closing import account_close
from tests.games.helpers import every_player_moved, started

pytestmark = pytest.mark.django_db


def chat_lines(page: str) -> list[str]:
    chat = re.search(r'<ul class="chat-messages" id="part-chat">(.*?)</ul>', page, re.S)[1]
    return [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li.*?</li>", chat)]


def test_the_other_player_reads_that_the_closed_accounts_message_was_removed(alice, bob):
    game = every_player_moved(started("azul", alice, bob))
    chat_post(game=game, user=alice, text="good luck!")
    chat_post(game=game, user=bob, text="thanks, you too")

    account_close(user=alice)

    client = Client()
    client.force_login(bob)
    assert chat_lines(client.get(f"/games/{game.pk}/").text) == [
        "Deleted player: Message removed: its author closed their account.",
        "Bob: thanks, you too",
    ]
