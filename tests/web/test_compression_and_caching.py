"""What a browser notices of the site's transfer (issue 41): pages come gzip-compressed to a
client that accepts it, with the CSRF token different in every answer (the BREACH ruling in
``azulsite/settings.py``), and collected static files have content-hashed names cached for
at least a year, immutable."""

import re

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from games.services.tables import game_create, game_join

YEAR = 365 * 24 * 3600


def test_the_home_page_answers_gzip_to_a_client_that_accepts_it(client, db):
    plain = client.get("/")
    packed = client.get("/", headers={"accept-encoding": "gzip, br"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.content) < len(plain.content) / 2


def test_a_signed_in_page_is_compressed_with_its_csrf_token_masked_anew_each_time(
    client, alice, bob
):
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    client.force_login(alice)
    packed = client.get(f"/games/{game.pk}/", headers={"accept-encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    tokens = {
        re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
        for page in (client.get(f"/games/{game.pk}/") for _ in range(3))
    }
    assert len(tokens) == 3


@pytest.mark.django_db
def test_collected_static_files_are_hashed_and_cached_for_a_year_immutable(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
        client = Client()
        home = client.get("/").content.decode()
        css = re.search(r'href="(/static/games/site\.[0-9a-f]{12}\.css)"', home)
        assert css, "the page names the stylesheet by its hash"
        answer = client.get(css.group(1))
        assert answer.status_code == 200
        control = answer.headers["Cache-Control"]
        assert "immutable" in control
        assert int(re.search(r"max-age=(\d+)", control).group(1)) >= YEAR
