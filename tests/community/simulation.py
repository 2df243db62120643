"""A deterministic simulated community (docs/architecture.md, "Time, email and Celery"):
people who open, join and leave games of every kind, play them through the API, the game
page's forms and emailed replies, take moves back, resign, chat, plan, go on vacation,
run tournaments and moderate, while a fake clock moves on in steps of minutes, the minute
sweep runs and a worker in this process runs what was queued. Faults come and go (the
broker unreachable, the SMTP server refusing, the push service answering 500). After
every step the invariants are checked; a failure names the seed and the steps that led
to it, and the same seed plays the same steps again."""

import json
import os
import random
import re
import tempfile
import time
import traceback
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.test import Client, override_settings
from django.utils.html import escape
from rest_framework.test import APIClient

from games import news, repository
from games.errors import ServiceError
from games.mail import services as mail
from games.models import (
    ChatMessage,
    Delivery,
    Game,
    Outbox,
    Plan,
    PushDelivery,
    PushSubscription,
    Seat,
    Tournament,
    TournamentGame,
)
from games.notify.channels.email import tokens
from games.registry import GAME_TYPES
from games.selectors.access import MODERATORS_GROUP, seat_of
from games.selectors.moves import legal_moves_of
from games.services import drift
from games.services import ratings as ratings_service
from games.services.moderation import (
    moderate_default_move,
    moderate_extend_deadline,
    moderate_pause,
    moderate_resume,
    moderate_revert,
)
from tests.community.world import Broker, ErrorLog, FakeClock, mail_server, push_service
from tests.conftest import make_user
from tests.mail.conftest import fixture_reply
from tests.push.conftest import Device

# Only the levels whose play a seed decides: the hard level searches for a time budget.
BOT_LEVELS = ("easy", "medium")
DOORS = ("api", "page", "email")
TIME_CONTROLS = (
    {"kind": "none"},
    {"kind": "per_move", "days": 1},
    {"kind": "per_move", "days": 2},
    {"kind": "bank", "bank_hours": 48, "increment_hours": 12, "cap_hours": 72},
)
TIMEOUT_POLICIES = ("default_move", "forfeit", "bot")
TOURNAMENT_FORMATS = ("swiss", "round_robin", "knockout")
# How far the clock moves in a step.
STEP_MINUTES = (5, 30, 60, 90, 120, 150)
# Rounds of the worker in one step: a game of computer players (and a resigned seat) plays
# itself out, one task queueing the next.
MOST_TASK_ROUNDS = 2000
# The last steps that a failure's report shows.
STEPS_SHOWN = 60


# Every so many games checked, the time left is read on the game page and the lobby too.
TIME_LEFT_WORDS_EVERY = 5


class CommunityFailure(AssertionError):
    """An invariant broken: the seed, the step and the steps that led there."""


@dataclass
class Person:
    """Someone using the site: their way in (``door`` for moves), how often they look, and
    their sessions (an API token, a signed-in browser)."""

    name: str
    user: object
    api: APIClient
    web: Client
    door: str
    eagerness: float
    device: Device | None = None
    away_until: datetime | None = None


@dataclass
class Figures:
    """What happened, counted."""

    steps: int = 0
    actions: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    tasks: Counter = field(default_factory=Counter)
    faults: Counter = field(default_factory=Counter)
    checks: Counter = field(default_factory=Counter)
    seconds: float = 0.0


class Community:
    """``people`` people over ``days`` days of a fake clock, from ``seed``."""

    def __init__(self, *, seed: int, people: int = 12, days: int = 14) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.count = people
        self.days = days
        self.start = datetime(2027, 3, 1, 6, 0, tzinfo=UTC)
        self.clock = FakeClock(self.start)
        self.people: list[Person] = []
        self.moderator: Person | None = None
        self.figures = Figures()
        self.log: list[str] = []
        self.failures: list[str] = []
        self.seen_seq: dict[int, int] = {}
        self.verified: set[int] = set()
        self.faults: dict[str, datetime] = {}
        # Who closed their account (issue 45), and how many emails they had had by then.
        self.closed: list[tuple[Person, int]] = []
        # The emails to players of games still open or in play, by id: (game, player). Kept
        # whatever their age, for the game's next emails to thread to (issue 44).
        self.emails_of_games_going: dict[int, tuple[int, int]] = {}

    # --- running -------------------------------------------------------------------------

    def run(self) -> Figures:
        """Live the community's days; raise ``CommunityFailure`` at the first step after
        which an invariant does not hold."""
        began = time.monotonic()
        with ExitStack() as stack:
            self.mail = stack.enter_context(mail_server())
            self.push = stack.enter_context(push_service())
            self.errors = stack.enter_context(ErrorLog().installed())
            stack.enter_context(self.clock.installed(random.Random(self.seed)))
            stack.enter_context(
                override_settings(
                    EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                    EMAIL_HOST="127.0.0.1",
                    EMAIL_PORT=self.mail.port,
                    EMAIL_USE_TLS=False,
                    EMAIL_USE_SSL=False,
                    EMAIL_HOST_USER="",
                    EMAIL_HOST_PASSWORD="",
                    MAIL_REPLY_DOMAIN="play.example",
                    MAIL_BOARD_PICTURES=False,
                    WEB_PUSH_ALLOWED_HOSTS=[f"127.0.0.1:{self.push.port}"],
                    ANALYSIS_SIMULATIONS=4,
                    # Sent emails and pushes go within the two weeks (180 days on a site).
                    RETENTION_DAYS={
                        **settings.RETENTION_DAYS,
                        "sent_bodies": 2,
                        "sent_rows": 4,
                    },
                    # Every timeout, turn a computer plays for a player out of time,
                    # planned move and delivery the sweep finds goes to the worker, a few
                    # games a task (the sweep's own when the broker is down).
                    SWEEP_SECONDS=0,
                    SWEEP_HAND_OUT=3,
                    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
                )
            )
            self.broker = Broker(self.clock)
            stack.callback(self.broker.close)
            # Every news the site publishes, as the stream server hears it.
            self.news = redis.Redis.from_url(settings.NEWS_REDIS_URL).pubsub(
                ignore_subscribe_messages=True
            )
            self.news.psubscribe(news.channel("*"))
            stack.callback(self.news.close)
            _restart_ids()
            _commit_without_waiting_for_the_disk()
            self._populate()
            end = self.start + timedelta(days=self.days)
            while self.clock.now < end:
                self._step()
            self._check_everything(final=True)
        self.figures.seconds = time.monotonic() - began
        return self.figures

    def _step(self) -> None:
        self.figures.steps += 1
        before_day = self.clock.now.date()
        self.clock.now += timedelta(minutes=self.rng.choice(STEP_MINUTES))
        if self.clock.now.date() != before_day:
            self._new_day()
        self._faults_come_and_go()
        awake = 7 <= self.clock.now.hour < 23
        for person in self.people:
            if person.away_until and person.away_until > self.clock.now:
                continue
            if self.rng.random() < person.eagerness * (1.0 if awake else 0.1):
                self._act(person)
        if self.moderator and self.rng.random() < 0.03:
            self._guarded("moderate", self._moderate)
        self._work()
        self._guarded("sweep", self._sweep)
        self._work()
        self._check_step()

    def _note(self, text: str) -> None:
        self.log.append(f"#{self.figures.steps} {self.clock.now:%m-%d %H:%M} {text}")

    def _fail(self, text: str) -> None:
        self._note("FAILED " + text.splitlines()[0])
        self.failures.append(text)

    def _guarded(self, what: str, work, *args) -> None:
        """Run ``work``; an exception is a failure of the site (the doors answer refusals,
        never raise)."""
        try:
            work(*args)
        except CommunityFailure:
            raise
        except Exception:
            self._fail(f"{what} raised:\n{traceback.format_exc()}")

    def _raise_if_failed(self) -> None:
        if not self.failures:
            return
        shown = "\n".join(self.log[-STEPS_SHOWN:])
        failures = "\n\n".join(self.failures)
        raise CommunityFailure(
            f"the community of seed {self.seed} ({self.count} people, {self.days} days) "
            f"broke at step {self.figures.steps} ({self.clock.now:%Y-%m-%d %H:%M} UTC).\n"
            f"Replay (with PYTHONHASHSEED={os.environ.get('PYTHONHASHSEED', '')!r}, as make test "
            f"sets it): Community(seed={self.seed}, people={self.count}, days={self.days}).run()"
            f" or bench/community.py --seed {self.seed} --people {self.count} --days "
            f"{self.days}\n\n{failures}\n\nThe last steps:\n{shown}"
        )

    # --- the world around the site ---------------------------------------------------------

    def _work(self) -> None:
        """The worker runs what the broker holds and is due, until nothing is left."""
        for _round in range(MOST_TASK_ROUNDS):
            self.broker.take()
            due = self.broker.due()
            if not due:
                return
            for name, args in due:
                self.figures.tasks[name.rsplit(".", 1)[-1]] += 1
                self._guarded(f"task {name}{args}", self.broker.run, name, args)
        self._fail(f"the tasks never stopped queueing more tasks: {self.broker.waiting[:10]}")

    def _sweep(self) -> None:
        # The beat's task itself: the minute sweep, then the beat's record.
        self.broker.run("games.tasks.sweep", [])

    def _faults_come_and_go(self) -> None:
        now = self.clock.now
        for name, until in list(self.faults.items()):
            if until <= now:
                del self.faults[name]
                self._set_fault(name, False)
                self._note(f"fault over: {name}")
        if self.rng.random() < 0.02:
            name = self.rng.choice(("broker", "smtp_data", "smtp_recipient", "push"))
            if name not in self.faults:
                self.faults[name] = now + timedelta(minutes=self.rng.choice((10, 45, 180)))
                self._set_fault(name, True)
                self.figures.faults[name] += 1
                self._note(f"fault begins: {name} until {self.faults[name]:%H:%M}")

    def _set_fault(self, name: str, on: bool) -> None:
        match name:
            case "broker":
                self.broker.set_down(on)
            case "smtp_data" | "smtp_recipient":
                self.mail.refusing = name.removeprefix("smtp_") if on else ""
            case "push":
                self.push.answers.down = on

    # --- people --------------------------------------------------------------------------

    def _populate(self) -> None:
        moderators, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
        for index in range(self.count):
            name = f"p{index:04d}"
            user = make_user(name)
            person = Person(
                name=name,
                user=user,
                # Each from an address of their own, as the rate limits count people.
                api=APIClient(REMOTE_ADDR=_address(index)),
                web=Client(REMOTE_ADDR=_address(index)),
                door=self.rng.choice(DOORS),
                eagerness=self.rng.choice((0.05, 0.15, 0.3, 0.6)),
            )
            answer = self._call(
                person, "post", "/api/token/", {"email": user.email, "password": "pw-" + name}
            )
            person.api.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
            person.web.force_login(user)
            if self.rng.random() < 0.3:
                person.device = Device()
                self._call(
                    person,
                    "post",
                    "/api/push-subscriptions/",
                    person.device.subscription(self.push.endpoint(name)),
                )
            self.people.append(person)
        moderator = make_user("moderator", is_staff=True)
        moderator.groups.add(moderators)
        self.moderator = Person("moderator", moderator, APIClient(), Client(), "page", 0)
        self.moderator.web.force_login(moderator)

    def _new_day(self) -> None:
        # A browser signs in again now and then: the sessions the fake clock ages expire.
        for person in [*self.people, self.moderator]:
            person.web.force_login(person.user)
        if not self.closed and self.clock.now >= self.start + timedelta(days=self.days * 0.6):
            self._guarded("closing an account", self._close_account, self.people[-1])
        self._check_everything(final=False)

    def _close_account(self, person: Person) -> None:
        """One person closes their account through the page, with their password, in the
        middle of their games and tournaments: from then on the site keeps nothing of
        them and tells them nothing, and the others play on."""
        address = person.user.email
        answer = self._call(
            person,
            "post",
            "/account/close/",
            {"password": "pw-" + person.name, "understood": "on"},
            page=True,
        )
        if answer.status_code != 302:
            said = re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', answer.content.decode())
            self._fail(f"{person.name} could not close their account: {answer.status_code} {said}")
            return
        self.people.remove(person)
        person.user.refresh_from_db()
        person.user.email = address  # to look for it below
        self.closed.append((person, len(self.mail.to(address))))
        self._note(f"{person.name} closed their account")

    def _check_forgotten(self) -> None:
        """Nothing of a closed account is kept where the site keeps data about people,
        and no email reaches its address after the closing."""
        for person, emails in self.closed:
            address = person.user.email
            kept = {
                "account": get_user_model().objects.filter(email__iexact=address).exists(),
                "outbox": Outbox.objects.filter(recipient__iexact=address).exists(),
                "devices": PushSubscription.objects.filter(user=person.user).exists(),
                "plans": Plan.objects.filter(user=person.user).exists(),
                "chat": ChatMessage.objects.filter(author=person.user).exclude(text="").exists(),
                "seats in play": Seat.objects.filter(
                    user=person.user, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE
                ).exists(),
            }
            for where, found in kept.items():
                if found:
                    self._fail(f"{person.name} closed their account, yet {where} keeps them")
            if len(self.mail.to(address)) != emails:
                self._fail(f"{person.name} closed their account, yet was emailed after")
        self.figures.checks["forgotten"] += len(self.closed)

    def _check_emails_of_games_going(self) -> None:
        """Old sent emails and pushes are deleted (retention, issue 44), but the emails of a
        game still open or in play: none of those seen before is missing while its game is
        (unless its player closed their account, which erases them)."""
        going = (Game.Status.OPEN, Game.Status.ACTIVE)
        seen = self.emails_of_games_going
        kept = set(Outbox.objects.filter(pk__in=seen).values_list("pk", flat=True))
        missing = {pk: seen[pk] for pk in set(seen) - kept}
        status = dict(
            Game.objects.filter(pk__in={game for game, _ in missing.values()}).values_list(
                "pk", "status"
            )
        )
        closed = {person.user.pk for person, _emails in self.closed}
        for pk, (game, user) in sorted(missing.items())[:5]:
            if status.get(game) in going and user not in closed:
                self._fail(f"outbox {pk} of game {game}, still going, was deleted")
        rows = Outbox.objects.filter(game__status__in=going, user__isnull=False)
        self.emails_of_games_going = {
            pk: (game, user) for pk, game, user in rows.values_list("pk", "game_id", "user_id")
        }
        # Emails and pushes share one table and its numbers.
        written = Delivery.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        self.figures.checks["delivery rows gone"] = written - Delivery.objects.count()

    def _call(self, person: Person, method: str, url: str, data=None, *, page: bool = False):
        """A request through a real door; a 5xx (or an exception) is a failure."""
        client = person.web if page else person.api
        if page:
            answer = getattr(client, method)(url, data or {})
        else:
            answer = getattr(client, method)(url, data or {}, format="json")
        self.figures.actions[f"{method.upper()} {'page' if page else 'api'}"] += 1
        if answer.status_code >= 500:
            self._fail(
                f"{person.name}: {method.upper()} {url} {data} answered {answer.status_code}"
            )
        elif answer.status_code >= 400:
            self.figures.refusals[_code_of(answer)] += 1
        return answer

    def _act(self, person: Person) -> None:
        mine = list(
            Game.objects.filter(seats__user=person.user, status=Game.Status.ACTIVE)
            .order_by("pk")
            .distinct()
        )
        waiting = list(
            Game.objects.filter(seats__user=person.user, status=Game.Status.OPEN).order_by("pk")
        )
        for game in mine:
            self._guarded(f"{person.name} in game {game.pk}", self._play_in, person, game)
        roll = self.rng.random()
        if roll < 0.12 and len(mine) + len(waiting) < 4:
            self._guarded(f"{person.name} opens a game", self._open_game, person)
        elif roll < 0.30:
            self._guarded(f"{person.name} joins a game", self._join_game, person)
        elif roll < 0.33 and waiting:
            self._guarded(f"{person.name} leaves a game", self._leave_game, person, waiting[0])
        elif roll < 0.36 and self.clock.now < self.start + timedelta(days=self.days * 0.4):
            self._guarded(f"{person.name} and tournaments", self._tournaments, person)
        elif roll < 0.37:
            self._guarded(f"{person.name} goes on vacation", self._vacation, person)

    # --- games ---------------------------------------------------------------------------

    def _open_game(self, person: Person) -> None:
        kind = self.rng.choice(sorted(GAME_TYPES))
        players = self.rng.choice((2, 2, 3, 4))
        bots = [self.rng.choice(BOT_LEVELS) for _ in range(self.rng.choice((0, 0, 1, players - 1)))]
        control = self.rng.choice(TIME_CONTROLS)
        body = {
            "game": kind,
            "players": players,
            "time_control": control,
            "rated": self.rng.random() < 0.6,
            "self_undo": self.rng.random() < 0.8,
            "timeout_policy": self.rng.choice(TIMEOUT_POLICIES),
        }
        if bots:
            body["bots"] = bots
        if control["kind"] != "none" and self.rng.random() < 0.2:
            body["playing_hours"] = True
        open_seats = players - 1 - len(bots)
        if open_seats and self.rng.random() < 0.25:
            others = [p for p in self.people if p is not person]
            body["private"] = True
            body["invite"] = [p.user.email for p in self.rng.sample(others, open_seats)]
        answer = self._call(person, "post", "/api/games/", body)
        self._note(f"{person.name} opens {body} -> {answer.status_code} {_id_of(answer)}")

    def _join_game(self, person: Person) -> None:
        answer = self._call(person, "get", "/api/games/?filter=open")
        games = answer.json()["results"] if answer.status_code == 200 else []
        invited = Game.objects.filter(
            status=Game.Status.OPEN, seats__invited_email=person.user.email, seats__user=None
        ).values_list("pk", flat=True)
        choices = sorted({g["id"] for g in games} | set(invited))
        if not choices:
            return
        game_id = self.rng.choice(choices)
        if self.rng.random() < 0.5:
            answer = self._call(person, "post", f"/api/games/{game_id}/join/")
        else:
            answer = self._call(person, "post", f"/games/{game_id}/join/", page=True)
        self._note(f"{person.name} joins {game_id} -> {answer.status_code}")

    def _leave_game(self, person: Person, game: Game) -> None:
        answer = self._call(person, "post", f"/api/games/{game.pk}/leave/")
        self._note(f"{person.name} leaves {game.pk} -> {answer.status_code}")

    def _play_in(self, person: Person, game: Game) -> None:
        detail = self._call(person, "get", f"/api/games/{game.pk}/")
        if detail.status_code != 200:
            return
        body = detail.json()
        you = body.get("you") or {}
        takeback = body.get("takeback")
        if takeback and you.get("seat") not in [takeback["seat"], *takeback["accepted"]]:
            accept = self.rng.random() < 0.7
            answer = self._call(
                person,
                "post",
                f"/api/games/{game.pk}/takebacks/{takeback['request']}/answer/",
                {"accept": accept},
            )
            self._note(
                f"{person.name} answers takeback in {game.pk}: {accept} -> {answer.status_code}"
            )
        if self.rng.random() < 0.03:
            text = self.rng.choice(("good luck", "nice move", "sorry, slow today"))
            answer = self._call(
                person, "post", f"/games/{game.pk}/chat/", {"text": text}, page=True
            )
            self._note(f"{person.name} chats in {game.pk} -> {answer.status_code}")
        if body.get("to_move") != you.get("seat"):
            if self.rng.random() < 0.05:
                self._plan(person, game)
            return
        roll = self.rng.random()
        if roll < 0.01:
            door = self.rng.choice(("api", "page"))
            if door == "api":
                answer = self._call(person, "post", f"/api/games/{game.pk}/resign/")
            else:
                answer = self._call(person, "post", f"/games/{game.pk}/resign/", page=True)
            self._note(f"{person.name} resigns {game.pk} by {door} -> {answer.status_code}")
            return
        if roll < 0.04 and body.get("last_seq", 0) > 4:
            to_seq = self.rng.randrange(1, body["last_seq"])
            answer = self._call(
                person, "post", f"/api/games/{game.pk}/takebacks/", {"to_seq": to_seq}
            )
            self._note(
                f"{person.name} asks a takeback to {to_seq} in {game.pk} -> {answer.status_code}"
            )
            return
        self._move(person, game)

    def _move(self, person: Person, game: Game) -> None:
        legal = self._call(person, "get", f"/api/games/{game.pk}/legal-moves/")
        if legal.status_code != 200 or not legal.json()["moves"]:
            return
        moves = [move["move"] for move in legal.json()["moves"]]
        seq = legal.json()["last_seq"]
        move = self.rng.choice(moves)
        door = person.door
        if door == "email":
            if self._reply(person, game, seq, move):
                return
            door = "api"
        if door == "api":
            answer = self._call(
                person,
                "post",
                f"/api/games/{game.pk}/moves/",
                {"move": move, "expected_seq": seq},
            )
        else:
            self._call(person, "get", f"/games/{game.pk}/", page=True)
            answer = self._call(
                person,
                "post",
                f"/games/{game.pk}/move/",
                {"move": move, "expected_seq": seq},
                page=True,
            )
        self._note(
            f"{person.name} plays {move!r} in {game.pk}@{seq} by {door} -> {answer.status_code}"
        )
        if answer.status_code < 400 and self.rng.random() < 0.05:
            if self.rng.random() < 0.5:
                answer = self._call(person, "post", f"/api/games/{game.pk}/undo/")
            else:
                answer = self._call(person, "post", f"/games/{game.pk}/undo/", page=True)
            self._note(f"{person.name} undoes in {game.pk} -> {answer.status_code}")

    def _reply(self, person: Person, game: Game, seq: int, move: str) -> bool:
        """Reply to the turn email for this position, if it came; whether one was sent."""
        for message in reversed(self.mail.to(person.user.email)):
            named = tokens.read_reply_address(str(message["Reply-To"] or ""))
            if named is not None and named.game_id == game.pk and named.seq == seq:
                raw = fixture_reply(
                    "gmail.eml",
                    FROM=person.user.email,
                    TO=str(message["Reply-To"]),
                    MOVE=move,
                    MESSAGE_ID=f"<{uuid.UUID(int=self.rng.getrandbits(128)).hex}@client.example>",
                )
                outcome = mail.reply_receive(raw=raw)
                self.figures.actions["email reply"] += 1
                self._note(f"{person.name} replies {move!r} to {game.pk}@{seq}: {outcome}")
                return True
        return False

    def _plan(self, person: Person, game: Game) -> None:
        table = repository.game_table(game)
        seat = seat_of(game, person.user)
        moves = [m["move"] for m in legal_moves_of(table)]
        if seat is None or not moves:
            return
        answer = self._call(
            person,
            "put",
            f"/api/games/{game.pk}/plan/",
            {"lines": [], "next_move": self.rng.choice(moves), "expected_seq": game.last_seq},
        )
        self._note(f"{person.name} plans in {game.pk} -> {answer.status_code}")

    def _vacation(self, person: Person) -> None:
        answer = self._call(
            person, "post", "/mail/preferences/", {"action": "vacation_start"}, page=True
        )
        person.away_until = self.clock.now + timedelta(days=self.rng.choice((1, 2, 3)))
        self._note(
            f"{person.name} goes on vacation until {person.away_until:%m-%d}"
            f" -> {answer.status_code}"
        )

    def _tournaments(self, person: Person) -> None:
        open_ones = list(
            Tournament.objects.filter(status=Tournament.Status.REGISTRATION).order_by("pk")
        )
        if open_ones and self.rng.random() < 0.9:
            tournament = self.rng.choice(open_ones)
            answer = self._call(person, "post", f"/api/tournaments/{tournament.pk}/join/")
            self._note(f"{person.name} joins tournament {tournament.pk} -> {answer.status_code}")
            if tournament.organiser_id == person.user.pk and tournament.players >= 4:
                answer = self._call(person, "post", f"/api/tournaments/{tournament.pk}/start/")
                self._note(
                    f"{person.name} starts tournament {tournament.pk} -> {answer.status_code}"
                )
            return
        format = self.rng.choice(TOURNAMENT_FORMATS)
        body = {
            "name": f"Cup {self.figures.steps}",
            "format": format,
            "game": self.rng.choice(sorted(GAME_TYPES)),
            "per_game": 2,
            "rounds": 2 if format == "swiss" else 0,
            "time_control": {"kind": "per_move", "days": 1},
            "round_days": 2,
            "min_players": 3,
            "max_players": 6,
            "entry_closes": (self.clock.now + timedelta(days=1)).isoformat(),
        }
        answer = self._call(person, "post", "/api/tournaments/", body)
        self._note(f"{person.name} opens tournament {body} -> {answer.status_code}")

    def _moderate(self) -> None:
        games = list(Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk"))
        if not games:
            return
        game = self.rng.choice(games)
        moderator = self.moderator.user
        what = self.rng.choice(("pause", "extend", "default", "revert"))
        try:
            match what:
                case "pause":
                    moderate_pause(game=game, moderator=moderator, reason="a report")
                    moderate_resume(game=game, moderator=moderator, reason="settled")
                case "extend":
                    moderate_extend_deadline(
                        game=game, moderator=moderator, reason="asked", hours=12
                    )
                case "default":
                    moderate_default_move(game=game, moderator=moderator, reason="stuck")
                case "revert":
                    to_seq = max(1, game.last_seq - self.rng.randrange(1, 4))
                    moderate_revert(
                        game=game, moderator=moderator, reason="a mistake", to_seq=to_seq
                    )
        except ServiceError as refused:
            self.figures.refusals[refused.code] += 1
        self._note(f"moderator: {what} in {game.pk}")

    # --- invariants ----------------------------------------------------------------------

    def _check_step(self) -> None:
        """What must hold after every step."""
        now = self.clock.now
        for record in self.errors.records:
            told = "".join(traceback.format_exception(*record.exc_info)) if record.exc_info else ""
            self._fail(f"logged {record.levelname} by {record.name}: {record.getMessage()}\n{told}")
        self.errors.records.clear()
        late = Outbox.objects.filter(
            sent_at__isnull=True, cancelled_at__isnull=True, due_at__lte=now
        )
        for row in late[:5]:
            self._fail(f"outbox {row.pk} ({row.kind} to {row.recipient}) due {row.due_at} not sent")
        lost = Outbox.objects.filter(cancelled_at__isnull=False, withdrawn_because="")
        for row in lost[:5]:
            self._fail(f"outbox {row.pk} ({row.kind}) given up: {row.last_error}")
        pushes = PushDelivery.objects.filter(
            sent_at__isnull=True, cancelled_at__isnull=True, due_at__lte=now
        )
        for row in pushes[:5]:
            self._fail(f"push {row.pk} ({row.kind}) due {row.due_at} not pushed")
        self._check_forgotten()
        self._check_emails_of_games_going()
        overdue = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lt=now)
        for game in overdue[:5]:
            self._fail(f"game {game.pk}: its deadline {game.deadline} passed, no timeout applied")
        # A paired round's games come from the worker after the commit (or the sweep, when
        # the broker was down): by the end of a step, both have run.
        played = TournamentGame.objects.filter(
            tournament=OuterRef("pk"), round=OuterRef("current_round")
        )
        waiting = Tournament.objects.filter(
            status=Tournament.Status.RUNNING, current_round__gt=0
        ).exclude(Exists(played))
        for tournament in waiting[:5]:
            self._fail(
                f"tournament {tournament.pk}: round {tournament.current_round} paired, "
                "its games never begun"
            )
        self.figures.checks["step"] += 1
        moved = Game.objects.exclude(status=Game.Status.OPEN).values_list("pk", "last_seq")
        told = self._news_heard()
        for game_id, seq in moved:
            if self.seen_seq.get(game_id) != seq:
                self.seen_seq[game_id] = seq
                self._guarded(f"checking game {game_id}", self._check_game, game_id)
                if news.game_topic(game_id) not in told:
                    self._fail(f"game {game_id} moved on and its open pages were not told")
        self._raise_if_failed()

    def _news_heard(self) -> set[str]:
        """The topics published since the last step (``games.news``): the open pages'
        streams hear exactly these."""
        # A mark of our own, published now: Redis hands a subscriber its messages in the
        # order it took them, so all that came before the mark is in by the time it is.
        mark = news.channel("community-mark")
        redis.Redis.from_url(settings.NEWS_REDIS_URL).publish(mark, "1")
        heard = set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            # None also for the subscription's own confirmation: read on until the mark.
            message = self.news.get_message(timeout=1)
            if message is None:
                continue
            if message["channel"].decode() == mark:
                break
            heard.add(message["channel"].decode().split(":news:", 1)[1])
        self.figures.checks["news"] += 1
        return heard

    def _check_game(self, game_id: int) -> None:
        game = Game.objects.get(pk=game_id)
        self.figures.checks["games"] += 1
        if drift.game_drifted(game):
            self._fail(f"game {game_id}: its read model or a snapshot differs from its events")
        if game.status == Game.Status.FINISHED and game_id not in self.verified:
            self.verified.add(game_id)
            self._verify(game)
        if game.status == Game.Status.ACTIVE:
            self._check_time_left(game)
        for row in Plan.objects.filter(game=game):
            if game.status != Game.Status.ACTIVE:
                self._fail(f"game {game_id} is {game.status} and keeps a plan of seat {row.seat}")
            elif row.due_at and row.due_at < self.clock.now - timedelta(minutes=1):
                self._fail(f"game {game_id}: the plan of seat {row.seat} due {row.due_at} unplayed")

    def _check_time_left(self, game: Game) -> None:
        """One deadline everywhere it is kept or said: the game row, the clock folded from
        the events, the API."""
        folded = repository.game_table(game).clock.deadline()
        person = self._player_of(game)
        if person is None:
            return
        answer = self._call(person, "get", f"/api/games/{game.pk}/")
        said = answer.json().get("deadline") if answer.status_code == 200 else None
        said = datetime.fromisoformat(said) if said else None
        if not game.deadline == folded == said:
            self._fail(
                f"game {game.pk}: the row's deadline {game.deadline}, the clock's {folded}, "
                f"the API's {said}"
            )
        # The words too, on one in every few checks (two pages more each): what the API says
        # is left is what the game page and the lobby say, to the same person, at once.
        text = (answer.json().get("time_left") or {}).get("text") if said else None
        if text and self.figures.checks["games"] % TIME_LEFT_WORDS_EVERY == 0:
            for where in (f"/games/{game.pk}/", "/lobby/"):
                page = self._call(person, "get", where, page=True)
                if escape(text) not in page.content.decode():
                    self._fail(f"game {game.pk}: {where} does not say the API's {text!r}")

    def _player_of(self, game: Game) -> Person | None:
        """The first of the game's players still among the people (not one who left)."""
        seated = list(game.seats.exclude(user=None).values_list("user_id", flat=True))
        return next((p for user_id in seated for p in self.people if p.user.pk == user_id), None)

    def _verify(self, game: Game) -> None:
        person = self._player_of(game)
        if person is None:
            return
        export = self._call(person, "get", f"/api/games/{game.pk}/export/")
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as record:
            record.write(export.content.decode())
            record.flush()
            try:
                call_command("verify_game", record.name, stdout=_Discard())
            except Exception as error:
                self._fail(f"game {game.pk} does not verify: {error}")
        self.figures.checks["verified"] += 1

    def _check_everything(self, *, final: bool) -> None:
        """What is too slow for every step: the ratings against a rebuild (every day); at
        the end, every game's pages for everyone and the tournaments over."""
        self._guarded("ratings against a rebuild", self._check_ratings)
        if final:
            self._guarded("rendering every game", self._render_everything)
            for tournament in Tournament.objects.exclude(
                status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
            ):
                self._fail(
                    f"tournament {tournament.pk} ({tournament.format}) is {tournament.status}"
                )
        self._raise_if_failed()

    def _render_everything(self) -> None:
        """Every game's pages for each of its players, a stranger signed in (a spectator of
        a public game; for a private one, someone told it does not exist) and a visitor
        signed out."""
        visitor = Person("visitor", None, APIClient(), Client(), "page", 0)
        for game in Game.objects.order_by("pk"):
            seats = list(game.seats.all())
            seated = {seat.user_id for seat in seats}
            invited = {seat.invited_email for seat in seats}
            viewers = [p for p in self.people if p.user.pk in seated]
            stranger = next(
                p for p in self.people if p.user.pk not in seated and p.user.email not in invited
            )
            for person in viewers:
                self._pages(person, game, expected=200)
            self._pages(stranger, game, expected=404 if game.private else 200)
            answer = self._call(visitor, "get", f"/games/{game.pk}/", page=True)
            if answer.status_code != (404 if game.private else 200):
                self._fail(f"a visitor: GET /games/{game.pk}/ answered {answer.status_code}")
            self.figures.checks["pages"] += 1

    def _pages(self, person: Person, game: Game, *, expected: int) -> None:
        urls = [(f"/games/{game.pk}/", True), (f"/api/games/{game.pk}/", False)]
        if game.started_at is not None:
            # A game that never started has no replay (400) and no state to show.
            urls += [(f"/games/{game.pk}/replay/", True), (f"/api/games/{game.pk}/state/", False)]
        for url, page in urls:
            answer = self._call(person, "get", url, page=page)
            if answer.status_code != expected and answer.status_code < 500:
                self._fail(
                    f"{person.name}: GET {url} answered {answer.status_code}, not {expected}"
                )

    def _check_ratings(self) -> None:
        stored = _ratings()
        with transaction.atomic():
            ratings_service.ratings_rebuild()
            rebuilt = _ratings()
            transaction.set_rollback(True)
        if stored != rebuilt:
            self._fail(f"the ratings differ from a rebuild: {stored} != {rebuilt}")
        self.figures.checks["ratings"] += 1


def _ratings() -> list:
    from games.models import Rating

    return [
        (row["user_id"], row["game_type"], round(row["mu"], 6), round(row["sigma"], 6))
        for row in Rating.objects.order_by("user_id", "game_type").values()
    ]


def _commit_without_waiting_for_the_disk() -> None:
    """A commit returns before its record is on disk: only a crash of PostgreSQL itself
    could lose the last commits, which the simulation never causes; on a busy machine
    the waits for the disk were most of its time."""
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")


def _restart_ids() -> None:
    """Every table's ids from 1 again, so a seed names the same games (a computer player's
    seed is its game's id)."""
    from django.apps import apps

    statements = connection.ops.sequence_reset_by_name_sql(
        no_style(),
        [
            {"table": model._meta.db_table, "column": model._meta.pk.column}
            for model in apps.get_models()
            if model._meta.pk.get_internal_type() in ("AutoField", "BigAutoField")
        ],
    )
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def _address(index: int) -> str:
    return f"10.{index // 62500}.{index // 250 % 250}.{index % 250 + 1}"


def _code_of(answer) -> str:
    try:
        return str(answer.json().get("code", answer.status_code))
    except (ValueError, AttributeError):
        return str(answer.status_code)


def _id_of(answer) -> object:
    try:
        return answer.json().get("id")
    except (ValueError, AttributeError):
        return None


class _Discard:
    def write(self, _text: str) -> None:
        pass

    def flush(self) -> None:
        pass


def summary(community: Community) -> str:
    """What the community did and what the site sent, as JSON."""
    from events.models import Event

    figures = community.figures
    games = Counter(
        f"{kind} {status}" for kind, status in Game.objects.values_list("game_type", "status")
    )
    return json.dumps(
        {
            "seed": community.seed,
            "people": community.count,
            "days": community.days,
            "steps": figures.steps,
            "games": dict(sorted(games.items())),
            "tournaments": dict(Counter(Tournament.objects.values_list("status", flat=True))),
            "moves": Event.objects.filter(type="table.Moved").count(),
            "emails sent": Outbox.objects.filter(sent_at__isnull=False).count(),
            "emails delivered": len(community.mail.messages),
            "pushes sent": PushDelivery.objects.filter(sent_at__isnull=False).count(),
            "pushes refused (500)": community.push.answers.failed,
            "actions": dict(figures.actions),
            "refusals": dict(figures.refusals.most_common(12)),
            "tasks": dict(figures.tasks),
            "faults": dict(figures.faults),
            "checks": dict(figures.checks),
            "failures": len(community.failures),
            "seconds": round(figures.seconds, 1),
        },
        indent=2,
    )
