from tests.web.helpers import play_moves, started_game


def test_smoke(client, alice, bob):
    for slug in ("summer-pavilion", "azul", "miyabi"):
        game = started_game(alice, bob, slug)
        play_moves(game, (alice, bob), 3)
        client.force_login(alice)
        r = client.get(f"/games/{game.pk}/")
        assert r.status_code == 200, r.content[:3000]
        r = client.get(f"/games/{game.pk}/replay/?at=3")
        assert r.status_code == 200
    assert client.get("/lobby/").status_code == 200
    assert client.get("/games/new/").status_code == 200
