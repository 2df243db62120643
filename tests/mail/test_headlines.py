"""Emails say what happened (issue 28): the first line of the text part and the HTML
preheader say what happened and what is asked, moves in words; the subject says it first
too (issue 53), then the game and the other players, the same in all its emails."""

import html
import re
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games.models import Game, NoticeKind, Outbox
from games.notify.channels import channel
from games.notify.channels.email import render, texts
from games.notify.notice import Notice
from games.repository import game_table
from games.selectors.lists import waiting_for
from games.services.deadlines import game_timeout
from games.services.moves import game_resign, move_submit, takeback_request
from tests.games.helpers import every_player_moved
from tests.mail.conftest import player_to_move, start_game
from tests.mail.test_languages import every_kind, reading_time, speaks

PREHEADER = re.compile(r'<span class="preheader" style="display: none;[^"]*">(.*?)&zwnj;', re.S)


def first_line(message) -> str:
    """The text part's first paragraph (folded to 78 columns), as one line."""
    return " ".join(message.body.split("\n\n")[0].split())


def preheader(message) -> str:
    markup = message.alternatives[0][0]
    return " ".join(html.unescape(PREHEADER.search(markup).group(1)).split())


def rendered(row: Outbox, now=None):
    """``row``'s email, sent at ``now`` (default: now); its first line, which the
    preheader and the HTML's first paragraph after the greeting repeat."""
    message = render.message(row, now or timezone.now())
    line = first_line(message)
    assert line and preheader(message) == line, row.kind
    visible = " ".join(html.unescape(message.alternatives[0][0]).split())
    assert f"<p>{line}</p>" in visible, row.kind
    return message, line


def names(game: Game) -> list[str]:
    return [seat.user.first_name for seat in game.seats.order_by("position")]


def title(game: Game) -> str:
    """The game's title in the active language, "Azul #4" or "Azul nr 4"."""
    return texts.game_title(game)


def play(game: Game, times: int = 1) -> list[str]:
    """The seats to move play the least wasteful move ``times``; who played each."""
    movers = []
    for _ in range(times):
        table = game_table(Game.objects.get(pk=game.pk))
        player = player_to_move(game)
        move = table.engine.format(table.engine.default_command(table.state))
        move_submit(game=game, user=player, move=move)
        movers.append(player.first_name)
    game.refresh_from_db()
    return movers


def row_of(game: Game, user, kind: str) -> Outbox:
    return Outbox.objects.filter(game=game, recipient=user.email, kind=kind).latest("pk")


# --- every kind, in English and in Polish -----------------------------------------------

# The first line of each row of ``every_kind`` (an invitation to a Miyabi game of Bob's; a
# game of Alice and Bob, started, read when its clock has 2 days and 3 hours left; a game Carol
# resigned; rows about no game), with {title} the game's, {over} the resigned game's and
# {first} saying who moves first.
EVERY_KIND = {
    "en": [
        "Bob invites you to a game of Miyabi for 2 players (no time limit).",
        "{title} has started. Seat order: {order}; {first}.",
        "Your turn in {title}: you make the first move.",
        "{title} is still waiting for your move: 2 days, 3 hours left.",
        "Your time in {title} runs out in 2 days, 3 hours: make your move.",
        "Your time ran out in {title}: you forfeited the game.",
        "Your time ran out in {title}, so this move was played for you: F1 blue 1.",
        "Carol resigned: you win {over}.",
        "Another player asks to take back moves in {title}. Accept or decline on the game's page.",
        "Your move F1 blue 1 is played in {title}.",
        "Your move F1 blue 1 is played in {title}.",
        "Your plan for {title} is dropped: {second} played F2 red 1, which none of your lines "
        "expected.",
        "Your plan for {title} is dropped: moves were taken back.",
        "Your planned move in {title} was not played: F2 red 1 was no longer a legal move at the "
        "start of your turn.",
        "Your planned move in {title} was not played: new tiles were drawn before your turn, so "
        "F2 red 1 was not played.",
        "Your reply to {title} was not played: the game has moved on since that email. Here "
        "is the position now.",
        "Your reply to {title} was not played: no move found: write the move or its number.",
        "Your reply to {title} was not played: your email is written in a character set we "
        "cannot read (unknown encoding: x-klingon). Please write again in plain text, as "
        "UTF-8 (the setting most mail programs use).",
        "Your reply to {title} was not played: The game is over.",
        "Your email was not played: this address does not take moves (the link is wrong).",
        "Your email was not played: moves for a seat are taken only from the address its "
        "turn emails go to.",
        "Your email was not played: the receiving server could not confirm it came from your "
        "address (DMARC failed).",
        "{digest}",
        "The archive of your data you asked for is ready. Download it from your account page "
        "until 12/05/2026 noon; then it is deleted.",
        "Follow this link to sign in to azulsite (it works once, within 30 minutes):",
        "Round 2 of Cup: {title} has started. Seat order: {order}; {first}.",
        "You are registered for the tournament Cup. We will tell you when your first game starts.",
        "Bob invites you to the tournament Cup. Open its page to read its settings and join it "
        "(sign in with this address).",
        "Round 1 of Cup is over: you are 3 of 8. The next round has started.",
        "The tournament Cup is over: you finished 2 of 8.",
        "The tournament Cup is called off: no more of its rounds will start. Games of it still "
        "in play go on as ordinary games.",
        "The site paused your bot: it ran out of time in three games in a row. It takes no "
        "challenge and plays no ladder match until you let it play again.",
    ],
    "pl": [
        "Bob zaprasza cię do gry w Miyabi dla 2 graczy (bez limitu czasu).",
        "Gra {title} się rozpoczęła. Kolejność graczy: {order}; {first}.",
        "Twoja tura w grze {title}: wykonujesz pierwszy ruch.",
        "Gra {title} wciąż czeka na twój ruch (pozostały czas: 2 dni i 3 godziny).",
        "Twój czas w grze {title} kończy się za 2 dni i 3 godziny: wykonaj ruch.",
        "Twój czas w grze {title} się skończył: przegrywasz walkowerem.",
        "Twój czas w grze {title} się skończył, więc za ciebie wykonano ten ruch: F1 blue 1.",
        "Carol się poddaje: wygrywasz grę {over}.",
        "Inny gracz prosi o cofnięcie ruchów w grze {title}. Zaakceptuj lub odrzuć prośbę na "
        "stronie gry.",
        "Twój ruch F1 blue 1 w grze {title} został wykonany.",
        "Twój ruch F1 blue 1 w grze {title} został wykonany.",
        "Twój plan w grze {title} został porzucony: {second} zagrał(a) F2 red 1, czego nie "
        "zakładał żaden z twoich wariantów.",
        "Twój plan w grze {title} został porzucony: ruchy zostały cofnięte.",
        "Twój zaplanowany ruch w grze {title} nie został zagrany: F2 red 1 nie był już "
        "dozwolonym ruchem na początku twojej tury.",
        "Twój zaplanowany ruch w grze {title} nie został zagrany: przed twoją turą wylosowano "
        "nowe płytki, więc F2 red 1 nie został zagrany.",
        "Ruch z twojej odpowiedzi w grze {title} nie został wykonany: od czasu tamtego e-maila "
        "w grze wykonano już kolejne ruchy. Oto aktualna pozycja.",
        "Ruch z twojej odpowiedzi w grze {title} nie został wykonany: nie znaleziono ruchu: "
        "napisz ruch lub jego numer.",
        "Ruch z twojej odpowiedzi w grze {title} nie został wykonany: twój e-mail jest zapisany "
        "w kodowaniu znaków, którego nie umiemy odczytać (unknown encoding: x-klingon). Napisz "
        "jeszcze raz zwykłym tekstem, w UTF-8 (to ustawienie większości programów pocztowych).",
        "Ruch z twojej odpowiedzi w grze {title} nie został wykonany: Gra się zakończyła.",
        "Ruch z twojego e-maila nie został wykonany: ten adres nie przyjmuje ruchów (link jest "
        "błędny).",
        "Ruch z twojego e-maila nie został wykonany: ruchy dla danego miejsca przyjmujemy tylko "
        "z adresu, na który trafiają e-maile o jego turze.",
        "Ruch z twojego e-maila nie został wykonany: serwer odbiorczy nie mógł potwierdzić, że "
        "wiadomość pochodzi z twojego adresu (błąd DMARC).",
        "{digest}",
        "Archiwum twoich danych, o które prosiłeś(-aś), jest gotowe. Pobierz je ze strony "
        "swojego konta do 05-12-2026 12:00; potem zostanie usunięte.",
        "Kliknij ten link, aby zalogować się do azulsite (działa jednorazowo, przez 30 minut):",
        "Runda 2 turnieju Cup: Gra {title} się rozpoczęła. Kolejność graczy: {order}; {first}.",
        "Jesteś zapisany na turniej Cup. Powiadomimy cię, gdy zacznie się twoja pierwsza partia.",
        "Bob zaprasza cię na turniej Cup. Otwórz jego stronę, aby przeczytać ustawienia i się "
        "zapisać (zaloguj się tym adresem).",
        "Runda 1 turnieju Cup się zakończyła: zajmujesz miejsce 3 na 8. Zaczęła się następna "
        "runda.",
        "Turniej Cup się zakończył: zająłeś miejsce 2 na 8.",
        "Turniej Cup został odwołany: nie rozpocznie się już żadna jego runda. Jego partie, "
        "które wciąż trwają, toczą się dalej jako zwykłe partie.",
        "Serwis wstrzymał twojego bota: zabrakło mu czasu w trzech partiach z rzędu. Nie "
        "przyjmuje wyzwań ani nie gra meczów w drabince, dopóki nie pozwolisz mu znów grać.",
    ],
}
FIRST = {"en": ("you move first", "{name} moves first"), "pl": ("zaczynasz ty", "zaczyna {name}")}
DIGEST = {
    "en": ("1 game is waiting for your move: {title}.", "Your daily digest: every game"),
    "pl": ("1 gra czeka na twój ruch: {title}.", "Codzienne podsumowanie: wszystkie gry"),
}


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.django_db
def test_every_kind_opens_with_what_happened_in_its_text_and_its_preheader(
    language, alice, bob, carol, settings
):
    settings.MAIL_BOARD_PICTURES = False
    speaks(alice, language)
    rows = every_kind(alice, bob, carol)
    game, over = rows[1].game, rows[7].game
    first = player_to_move(game)
    with translation.override(language):
        you, other = FIRST[language]
        waiting, none = DIGEST[language]
        values = {
            "title": title(game),
            "over": title(over),
            "order": ", ".join(names(game)),
            "second": names(game)[1],
            "first": you if first == alice else other.format(name=first.first_name),
            "digest": waiting.format(title=title(game)) if list(waiting_for(alice)) else none,
        }
    now = reading_time(game)
    for row, expected in zip(rows, EVERY_KIND[language], strict=True):
        _message, line = rendered(row, now)
        if row.kind == NoticeKind.DIGEST and not values["digest"].endswith("."):
            assert line.startswith(values["digest"])
        else:
            assert line == expected.format(**values), row.kind


# Issue 53: what each email of a game says first in its subject, to Alice.
SUBJECTS = {
    NoticeKind.GAME_STARTED: "Game started",
    NoticeKind.YOUR_TURN: "Your turn",
    NoticeKind.REMINDER: "Your turn",
    NoticeKind.DEADLINE_WARNING: "Your time is running out",
    NoticeKind.TIMEOUT: "Your time ran out",
    NoticeKind.TAKEBACK_REQUEST: "Takeback asked",
    NoticeKind.MOVE_CONFIRMED: "Your move is played",
    NoticeKind.PLAN_DROPPED: "Your plan changed",
    NoticeKind.REPLY_REFUSED: "Your reply was not played",
    NoticeKind.TOURNAMENT_ROUND: "Round 2 of Cup",
}


@pytest.mark.django_db
def test_a_games_subject_says_what_happened_before_the_game_and_the_other_players(
    alice, bob, carol
):
    rows = every_kind(alice, bob, carol)
    game = rows[1].game
    for row in rows:
        subject = render.message(row, timezone.now()).subject
        if row.game == game:
            assert subject == f"{SUBJECTS[row.kind]} — Azul #{game.pk} with Bob", row.kind
        elif row.kind == NoticeKind.GAME_OVER:
            assert subject == f"You won — Azul #{row.game.pk} with Carol"


@pytest.mark.django_db
def test_a_game_over_subject_names_the_winner_to_the_others(alice, bob, carol):
    game = every_player_moved(start_game(alice, bob, carol))
    game_resign(game=game, user=carol)
    game_resign(game=game, user=alice)
    row = Outbox.objects.get(game=game, kind=NoticeKind.GAME_OVER, recipient=carol.email)
    others = ", ".join(name for name in names(game) if name != "Carol")
    assert render.message(row, timezone.now()).subject == f"Bob won — Azul #{game.pk} with {others}"


# --- what happened, from real games ------------------------------------------------------

# A move of Azul in words, as the move list says it.
AZUL_MOVE = {
    "en": r"{name} took \d+ \w+ tiles? from (factory \d|the centre) → (line \d|the floor line)",
    "pl": r"{name} bierze z (warsztatu \d|środka)[^;]*→ (linia \d|linia podłogi)",
}


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.django_db
def test_your_turn_says_the_moves_since_the_readers_last_move_in_words(
    language, alice, bob, carol, settings
):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob, carol)
    for user in (alice, bob, carol):
        speaks(user, language)
    first, second, third = play(game, 3)
    reader = player_to_move(game)
    assert reader.first_name == first, "a round of three turns in seat order"
    _message, line = rendered(row_of(game, reader, NoticeKind.YOUR_TURN))
    with translation.override(language):
        head = {"en": "Your turn in {title} — ", "pl": "Twoja tura w grze {title} — "}
        prefix = re.escape(head[language].format(title=title(game)))
    moves = [AZUL_MOVE[language].format(name=name) for name in (second, third)]
    assert re.fullmatch(prefix + "; ".join(moves) + r"( \(.*\))?\.", line), line
    assert first not in line.split("—")[1], "not the reader's own move"


@pytest.mark.django_db
def test_the_first_player_is_told_the_game_started_and_who_moves_first(alice, bob, carol):
    game = start_game(alice, bob, carol)
    order = names(game)
    _message, line = rendered(row_of(game, alice, NoticeKind.GAME_STARTED))
    first = player_to_move(game)
    who = "you move first" if first == alice else f"{first.first_name} moves first"
    assert line == f"Azul #{game.pk} has started. Seat order: {', '.join(order)}; {who}."


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.django_db
def test_a_takeback_email_names_the_player_and_the_move_in_words(language, alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob)
    asker, _other = play(game, 2)
    asking = alice if asker == "Alice" else bob
    answering = bob if asking == alice else alice
    speaks(answering, language)
    table = game_table(game)
    takeback_request(game=game, user=asking, to_seq=table.steps[0].last)
    row = row_of(game, answering, NoticeKind.TAKEBACK_REQUEST)
    assert row.payload["seat"] == table.steps[1].seat
    _message, line = rendered(row)
    expected = {
        "en": (
            rf"{asker} asks to take Azul #{game.pk} back to before move 1, “{asker} took .+” "
            r"\(2 moves\)\. Accept or decline on the game's page\."
        ),
        "es": (
            rf"{asker} pide volver en Azul n\.º {game.pk} a antes de la jugada 1, «{asker} tomó "
            r".+» \(2 jugadas\)\. Acepta o rechaza la petición en la página de la partida\."
        ),
    }
    assert re.fullmatch(expected[language], line), line
    # A row queued before the payload named the seat asking reads it from the events.
    Outbox.objects.filter(pk=row.pk).update(
        payload={"request": row.payload["request"], "to_seq": row.payload["to_seq"]}
    )
    row.refresh_from_db()
    assert rendered(row)[1] == line


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.django_db
def test_a_resignation_says_who_resigned_and_who_wins(language, alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob)
    speaks(alice, language)
    play(game, 2)
    game_resign(game=game, user=bob)
    _message, line = rendered(row_of(game, alice, NoticeKind.GAME_OVER))
    expected = {
        "en": f"Bob resigned: you win Azul #{game.pk}.",
        "es": f"Bob ha abandonado: ganas Azul n.º {game.pk}.",
    }
    assert line == expected[language]


@pytest.mark.django_db
def test_a_forfeit_on_time_says_whose_time_ran_out_and_who_wins(alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(
        alice, bob, time_control={"kind": "per_move", "days": 1}, timeout_policy="forfeit"
    )
    speaks(bob, "es")
    every_player_moved(game)
    late = player_to_move(game)
    winner = bob if late == alice else alice
    game_timeout(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    lines = {user: rendered(row_of(game, user, NoticeKind.GAME_OVER))[1] for user in (alice, bob)}
    if winner == alice:
        assert lines[alice] == f"Time ran out for Bob: you win Azul #{game.pk}."
        assert lines[bob] == f"Se te ha acabado el tiempo: Alice gana Azul n.º {game.pk}."
    else:
        assert lines[alice] == f"Your time ran out: Bob wins Azul #{game.pk}."
        assert lines[bob] == f"A Alice se le ha acabado el tiempo: ganas Azul n.º {game.pk}."
    assert rendered(row_of(game, late, NoticeKind.TIMEOUT))[1].endswith(
        ("you forfeited the game.", "has perdido la partida por tiempo.")
    )


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.django_db
def test_a_resignation_before_every_player_moved_says_who_resigned_and_that_it_is_aborted(
    language, alice, bob, settings
):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob)
    speaks(alice, language)
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    message, line = rendered(row_of(game, alice, NoticeKind.GAME_OVER))
    expected = {
        "en": f"Bob resigned before every player had moved: Azul #{game.pk} is aborted and "
        "unrated.",
        "es": f"Bob ha abandonado antes de que todos los jugadores movieran: Azul n.º {game.pk} "
        "queda anulada y no puntúa.",
    }
    assert line == expected[language]
    assert "wins" not in message.body and "0–0" not in message.body
    assert not Outbox.objects.filter(game=game, recipient=bob.email, kind=NoticeKind.GAME_OVER)


@pytest.mark.django_db
def test_a_forfeit_on_time_before_every_player_moved_says_whose_time_ran_out(alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(
        alice, bob, time_control={"kind": "per_move", "days": 1}, timeout_policy="forfeit"
    )
    speaks(bob, "pl")
    late = player_to_move(game)
    game_timeout(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    lines = {user: rendered(row_of(game, user, NoticeKind.GAME_OVER))[1] for user in (alice, bob)}
    if late == alice:
        assert lines[alice] == (
            f"Your time ran out before every player had moved: Azul #{game.pk} is aborted and "
            "unrated."
        )
        assert lines[bob] == (
            f"Czas gracza Alice się skończył, zanim każdy gracz wykonał ruch: gra Azul nr "
            f"{game.pk} zostaje przerwana i nie liczy się do rankingu."
        )
    else:
        assert lines[alice] == (
            f"Time ran out for Bob before every player had moved: Azul #{game.pk} is aborted "
            "and unrated."
        )
        assert lines[bob].startswith("Twój czas się skończył, zanim każdy gracz wykonał ruch")


@pytest.mark.django_db
def test_a_move_played_on_timeout_is_said_in_words_with_its_notation(alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob, time_control={"kind": "per_move", "days": 1})
    late = player_to_move(game)
    table = game_table(game)
    default = table.engine.format(table.engine.default_command(table.state))
    game_timeout(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    _message, line = rendered(row_of(game, late, NoticeKind.TIMEOUT))
    move = AZUL_MOVE["en"].format(name=late.first_name)
    assert re.fullmatch(
        rf"Your time ran out in Azul #{game.pk}, so this move was played for you: {move}"
        rf".* \({default}\)\.",
        line,
    ), line


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.django_db
def test_a_game_that_ends_by_the_rules_says_who_won_with_the_scores(language, alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob)
    for user in (alice, bob):
        speaks(user, language)
    while game.status == Game.Status.ACTIVE:
        play(game)
    assert game.status == Game.Status.FINISHED
    (row,) = Outbox.objects.filter(game=game, kind=NoticeKind.GAME_OVER)
    reader = alice if row.recipient == alice.email else bob
    _message, line = rendered(row)
    seats = {seat.position: seat.user for seat in game.seats.all()}
    scores = sorted(game.scores, reverse=True)
    points = f"{scores[0]}–{scores[1]}"
    with translation.override(language):
        name = title(game)
    if len(game.winners) > 1:
        shared = {"en": "share the victory", "pl": "wspólnie cieszą się wygraną"}
        assert shared[language] in line and line.endswith(f", {points}.")
        return
    winner = seats[game.winners[0]]
    expected = {
        "en": (f"{name} is over: you won {points}.", f"{name} is over: {{}} won {points}."),
        "pl": (
            f"Gra {name} dobiegła końca: wygrywasz, {points}.",
            f"Gra {name} dobiegła końca: wygrywa {{}}, {points}.",
        ),
    }[language]
    assert line == (expected[0] if winner == reader else expected[1].format(winner.first_name))
    assert "to move" not in line.lower()


@pytest.mark.django_db
def test_a_confirmed_reply_says_the_move_in_words(alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob)
    (mover,) = play(game)
    step = game_table(game).steps[1]
    user = alice if mover == "Alice" else bob
    payload = {"move": step.move, "in_reply_to": "<r@x>"}
    channel("email").deliver(
        Notice(NoticeKind.MOVE_CONFIRMED, step.seq, game=game, user=user, payload=payload)
    )
    _message, line = rendered(row_of(game, user, NoticeKind.MOVE_CONFIRMED))
    move = AZUL_MOVE["en"].format(name=mover)
    assert re.fullmatch(rf"Your move {step.move} is played in Azul #{game.pk}: {move}.*\.", line), (
        line
    )


@pytest.mark.django_db
def test_no_email_tells_what_the_bag_holds_or_draws(alice, bob, carol, settings):
    """The first lines say moves from what they did, never a draw or the bag."""
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob, carol)
    play(game, 8)
    for row in Outbox.objects.filter(game=game):
        _message, line = rendered(row)
        assert "bag" not in line.lower() and game.rng_secret not in line, line


@pytest.mark.django_db
def test_a_subject_is_in_the_readers_language(alice, bob):
    """Needs the catalogs: the translators' Polish."""
    speaks(alice, "pl")
    game = start_game(alice, bob)
    play(game, 2 if player_to_move(game) == alice else 1)
    row = row_of(game, alice, NoticeKind.YOUR_TURN)
    assert render.message(row, timezone.now()).subject == f"Twoja tura — Azul nr {game.pk} z: Bob"
