"""A deterministic simulated community (docs/architecture.md, "Time, email and Celery"):
people who open, join and leave games of every kind, play them through the API, the game
page's forms and emailed replies, take moves back, resign, chat, plan, go on vacation,
run tournaments and moderate, while a fake clock moves on in steps of minutes, the minute
sweep runs and a worker in this process runs what was queued. Faults come and go (the
broker unreachable, the SMTP server refusing, the push service answering 500). After
every step the invariants are checked; a failure names the seed and the steps that led
to it, and the same seed plays the same steps again."""

import json
import logging
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

import psycopg
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DatabaseError, connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.test import Client, override_settings
from django.utils.html import escape
from rest_framework.test import APIClient

from azulsite.celery import app
from games import news, repository
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
from games.selectors.names import display_name
from games.selectors.tournaments import tournaments_of_person
from games.services import drift
from games.services import ratings as ratings_service
from tests.community.faults import REDELIVERED_AFTER, MidStep, WorkerKilled
from tests.community.story import Story
from tests.community.world import (
    Broker,
    ErrorLog,
    FakeClock,
    mail_server,
    push_service,
    story_owned,
)
from tests.conftest import make_user
from tests.mail.conftest import fixture_reply
from tests.privacy.people import sign_in_by_link
from tests.privacy.traces import (
    database_dump,
    found_in,
    pages_holding,
    redis_dump,
    urls_of_game,
    urls_of_tournament,
)
from tests.push.conftest import Device

# Hard's search is decided by the seed too: a fixed number of simulations (``story_owned``).
BOT_LEVELS = ("easy", "medium", "hard")
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
# After the days, the people play on so many days before they leave; the clock may then
# run this many more for every game and tournament to end (a failure past them).
PLAYING_ON_DAYS = 1
MOST_DAYS_TO_END = 30
# A plan's line goes on until its player has answered this many times (or a draw).
PLAN_ANSWERS = 2
# The last steps that a failure's report shows.
STEPS_SHOWN = 60
# One person in so many signs up by the emailed link (the others have a password).
LINK_SIGN_UPS = 4
# The kinds of account closed (issue 52), one a day from this part of the days on, while
# more than ``FEWEST_LEFT`` people are left.
CLOSINGS = ("named", "link", "password", "organiser", "invited")
CLOSINGS_FROM = 0.5
FEWEST_LEFT = 6
# How often a moderator's reason names someone who does not play the game.
NAMED_IN_REASONS = 0.5


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
    # The public games they watch, with the last seq they saw.
    watching: dict[int, int] = field(default_factory=dict)
    # How the account was made: by the emailed sign-in link (no password, as sign-up
    # makes every account) or with a password (as the admin gives staff one).
    by_link: bool = False


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

    def __init__(
        self, *, seed: int, people: int = 12, days: int = 14, quiet: frozenset[int] = frozenset()
    ) -> None:
        self.seed = seed
        # The people's own draws (who they are); each step draws from its own, so that a
        # step made quiet (``quiet``, by the shrinker: nobody acts) changes no other step.
        self.rng = random.Random(f"{seed}:people")
        self.count = people
        self.days = days
        self.quiet = quiet
        # After the days (``_wind_down``): nothing new is opened; then the people leave.
        self.winding = False
        self.left = False
        # What reached the wire has been counted up to this time; Message-IDs told twice.
        self.wire_checked = datetime(2027, 3, 1, tzinfo=UTC)
        self.doubled: set[str] = set()
        self.db_faults_seen = 0
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
        # Of each kind of account closed (issue 52), whose; what each one closed was
        # known by (their address, their name), to look for afterwards.
        self.closed_kinds: dict[str, str] = {}
        self.known_by: dict[str, list[str]] = {}
        # The games whose moderator's reason named someone who did not play them.
        self.named_in: dict[str, set[int]] = {}
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
            stack.enter_context(story_owned(self.clock, self.seed))
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
                    # The sweep's time and a computers' task's are read on the simulation's
                    # stopwatch (``story_owned``): a pass does a few things itself and
                    # hands the rest out, a task of computers hands over after some moves.
                    SWEEP_SECONDS=0.003,
                    SWEEP_HAND_OUT=3,
                    BOT_TASK_SECONDS=0.02,
                    # No job is stopped by the real clock's alarm: a job's time is the
                    # simulation's to decide.
                    SWEEP_JOB_SECONDS=0,
                    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
                )
            )
            self.broker = Broker(self.clock)
            stack.callback(self.broker.close)
            self.mid = stack.enter_context(MidStep(self.push).installed(lambda: self.clock.now))
            # Every news the site publishes, as the stream server hears it.
            self.news = redis.Redis.from_url(settings.NEWS_REDIS_URL).pubsub(
                ignore_subscribe_messages=True
            )
            self.news.psubscribe(news.channel("*"))
            stack.callback(self.news.close)
            _restart_ids()
            # Nothing of an earlier story in this process: its folded tables, its cache.
            repository.tables_forgotten()
            # Its own keys only: a bench's other stories share the Redis database.
            cache.delete_pattern("*") if hasattr(cache, "delete_pattern") else cache.clear()
            _commit_without_waiting_for_the_disk()
            self._populate()
            end = self.start + timedelta(days=self.days)
            while self.clock.now < end:
                self._step()
            self._wind_down()
            self._check_everything(final=True)
        self.figures.seconds = time.monotonic() - began
        return self.figures

    @property
    def everyone(self) -> list[Person]:
        """The people, those who closed their account too."""
        return [*self.people, *(person for person, _emails in self.closed)]

    def _step(self) -> None:
        self.figures.steps += 1
        self.rng = random.Random(f"{self.seed}:step:{self.figures.steps}")
        before_day = self.clock.now.date()
        self.clock.now += timedelta(minutes=self.rng.choice(STEP_MINUTES))
        if self.clock.now.date() != before_day:
            self._new_day()
        quiet = self.figures.steps in self.quiet
        self._faults_come_and_go(begin=not (quiet or self.winding))
        if not (quiet or self.winding) and (armed := self.mid.arm(self.rng)):
            self._note(f"fault armed: {armed} (at its {self.mid.armed[1]}th chance)")
        awake = 7 <= self.clock.now.hour < 23
        for person in [] if quiet or self.left else self.people:
            if person.away_until and person.away_until > self.clock.now:
                continue
            eagerness = 1.0 if self.winding else person.eagerness
            if self.rng.random() < eagerness * (1.0 if awake else 0.1):
                self._act(person)
        if self.mid.strikes("clock jumped an hour"):
            self.clock.now += timedelta(hours=1)
            self._note("the clock jumped an hour")
        if self.left:
            self._guarded("seats of people who left", self._seats_to_computers)
        elif self.moderator and not quiet and self.rng.random() < 0.03:
            self._guarded("moderate", self._moderate)
        if not quiet and not self.winding:
            self._guarded("spectating", self._spectate)
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
        story = Story(self.seed, self.count, self.days, self.quiet)
        raise CommunityFailure(
            f"the community of seed {self.seed} ({self.count} people, {self.days} days) "
            f"broke at step {self.figures.steps} ({self.clock.now:%Y-%m-%d %H:%M} UTC).\n"
            f"Replay: {story.command()} (add --shrink for its shortest failing steps)"
            f"\n\n{failures}\n\nThe last steps:\n{shown}"
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
                self._guarded(f"task {name}{args}", self._task, name, args)
        self._fail(f"the tasks never stopped queueing more tasks: {self.broker.waiting[:10]}")

    def _task(self, name: str, args: list, *, beat: bool = False) -> bool:
        """Run a task as a worker process does; a fault struck in it (``faults``) ends it
        as it would end a worker: killed, its message comes back after the broker's
        visibility timeout (a beat's task has expired by then); a database error fails the
        task (the sweep does its work later)."""
        try:
            self.broker.run(name, args)
        except WorkerKilled as killed:
            self._note(f"worker killed running {name}{args}: {killed}")
            connection.close()
            _commit_without_waiting_for_the_disk()
            if not beat:
                self.broker.waiting.append(
                    (self.clock.now + REDELIVERED_AFTER, self.broker.taken, name, args)
                )
            return False
        except DatabaseError as error:
            if not self.mid.take_db_struck():
                raise
            self._note(f"task {name}{args} failed on an injected fault: {error}")
            connection.close_if_unusable_or_obsolete()
        return True

    def _sweep(self) -> None:
        # The beat's tasks themselves, in its schedule's order: the minute sweep, the
        # deliveries' own sweep, the beat's record. A pass whose process was restarted
        # is the next minute's to do again (what it did before stays done).
        # A database fault in a pass fails its later items too (their connection is gone):
        # the next minute's pass does them.
        for entry in app.conf.beat_schedule.values():
            for _minute in range(2):
                self.mid.in_sweep = True
                struck = self.mid.db_faults()
                try:
                    done = self._task(entry["task"], [], beat=True)
                finally:
                    self.mid.in_sweep = False
                if done and struck == self.mid.db_faults():
                    break
                self.mid.take_db_struck()
                connection.close_if_unusable_or_obsolete()
                self._work()

    def _faults_come_and_go(self, *, begin: bool) -> None:
        now = self.clock.now
        for name, until in list(self.faults.items()):
            if until <= now:
                del self.faults[name]
                self._set_fault(name, False)
                self._note(f"fault over: {name}")
        if self.rng.random() < 0.02 and begin:
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
            # Each from an address of their own, as the rate limits count people.
            web = Client(REMOTE_ADDR=_address(index))
            by_link = index % LINK_SIGN_UPS == 1
            user = self._signed_up_by_link(web, name) if by_link else make_user(name)
            person = Person(
                name=name,
                user=user,
                api=APIClient(REMOTE_ADDR=_address(index)),
                web=web,
                door=self.rng.choice(DOORS),
                eagerness=self.rng.choice((0.05, 0.15, 0.3, 0.6)),
                by_link=by_link,
            )
            person.api.credentials(HTTP_AUTHORIZATION=f"Token {self._api_token(person)}")
            if not by_link:
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

    def _signed_up_by_link(self, web: Client, name: str):
        """Sign up as the site's sign-up goes: the sign-in page, the email, its link."""
        address = f"{name}@example.com"
        landed = sign_in_by_link(web, address, smtp=self.mail)
        if landed.status_code != 302:
            self._fail(f"{name} could not sign up by the emailed link: {landed.status_code}")
        return get_user_model().objects.get(username=address)

    def _api_token(self, person: Person) -> str:
        """A token for the API: the password's (``POST /api/token/``), or, without a
        password, one made on the account page."""
        if not person.by_link:
            answer = self._call(
                person,
                "post",
                "/api/token/",
                {"email": person.user.email, "password": "pw-" + person.name},
            )
            return answer.json()["token"]
        made = self._call(person, "post", "/account/tokens/", {"name": "community"}, page=True)
        return re.search(r'id="new-token-key" value="([^"]+)"', made.content.decode()).group(1)

    def _new_day(self) -> None:
        # Before the browsers sign in again: a sign-in by link a day old is no proof.
        if self.clock.now >= self.start + timedelta(days=self.days * CLOSINGS_FROM):
            self._guarded("closing an account", self._close_next)
        # A browser signs in again now and then: the sessions the fake clock ages expire.
        for person in [*self.people, self.moderator]:
            person.web.force_login(person.user)
        self._check_everything(final=False)

    def _close_next(self) -> None:
        """Once a day, one account of a kind not closed yet (``CLOSINGS``): made by the
        link, with a password, an organiser's, one invited by address, one a moderator
        named in a game they did not play."""
        if len(self.people) <= FEWEST_LEFT:
            return
        for kind in CLOSINGS:
            if kind in self.closed_kinds:
                continue
            person = next((p for p in self.people if self._is_of_kind(p, kind)), None)
            if person is not None:
                self._close_account(person, kind)
                return

    def _is_of_kind(self, person: Person, kind: str) -> bool:
        user = person.user
        match kind:
            case "link" | "password":
                return person.by_link == (kind == "link")
            case "organiser":
                return Tournament.objects.filter(organiser=user).exists()
            case "invited":
                return Seat.objects.filter(invited_email__iexact=user.email).exists()
            case "named":
                return bool(self.named_in.get(person.name))
        return False

    def _close_account(self, person: Person, kind: str) -> None:
        """One person closes their account through the page, in the middle of their games
        and tournaments: with their password, or, signed up by the link, after signing in
        again by one. From then on the site keeps nothing of them and tells them nothing,
        and the others play on."""
        address = person.user.email
        known_by = [address, display_name(person.user)]
        urls = self._urls_about(person)
        if person.by_link:
            page = self._call(person, "get", "/account/close/", page=True).content.decode()
            if 'id="close-form"' in page:
                self._fail(f"{person.name}'s day-old sign-in was taken as proof to close")
            sign_in_by_link(person.web, address, next_url="/account/close/", smtp=self.mail)
            proof = {"understood": "on"}
        else:
            proof = {"password": "pw-" + person.name, "understood": "on"}
        answer = self._call(person, "post", "/account/close/", proof, page=True)
        if answer.status_code != 302:
            said = re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', answer.content.decode())
            self._fail(f"{person.name} could not close their account: {answer.status_code} {said}")
            return
        self.people.remove(person)
        person.user.refresh_from_db()
        person.user.email = address  # to look for it below
        self.closed.append((person, len(self.mail.to(address))))
        self.closed_kinds[kind] = person.name
        self.known_by[person.name] = known_by
        self._note(f"{person.name} ({kind}) closed their account")
        self._check_nothing_readable(person.name, urls)

    def _urls_about(self, person: Person) -> list[str]:
        """Where others read about ``person``: their games, the games a moderator named
        them in, their tournaments."""
        games = set(Seat.objects.filter(user=person.user).values_list("game_id", flat=True))
        games |= self.named_in.get(person.name, set())
        tournaments = tournaments_of_person(person.user).values_list("pk", flat=True)
        return [
            *(url for game in sorted(games) for url in urls_of_game(game)),
            *(url for pk in tournaments for url in urls_of_tournament(pk)),
        ]

    def _check_nothing_readable(self, name: str | None = None, urls: tuple = ()) -> None:
        """None of the closed people's data is readable anywhere the site keeps data: a
        dump of the database (archives opened), the cache in Redis, and (``urls``, just
        after ``name`` closed) the pages and answers about them, read by another player and
        a visitor (as tests/privacy/test_forget.py reads them). After each closing, and at
        the end."""
        dump, cache = database_dump(), redis_dump()
        for closed, known_by in self.known_by.items():
            for where, held in (("the database", dump), ("Redis", cache)):
                if found := found_in(held, known_by):
                    self._fail(f"{closed} closed their account, yet {where} holds {found}")
        if name is not None:
            readers = [self.people[0].web, Client()]
            for found in pages_holding(self.known_by[name], urls, readers):
                self._fail(f"{name} closed their account, yet {found}")
        self.figures.checks["nothing readable"] += 1

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
        """A request through a real door; a 5xx (or an exception) is a failure, but once
        after a database fault struck in it: then the client tries again, as clients do."""
        client = person.web if page else person.api
        try:
            answer = self._request(client, method, url, data, page=page)
            said = answer.status_code
        except DatabaseError as error:
            answer, said = None, error
        if (answer is None or answer.status_code >= 500) and self.mid.take_db_struck():
            connection.close_if_unusable_or_obsolete()
            self._note(f"{person.name}: {method.upper()} {url} failed ({said}); tried again")
            answer = self._request(client, method, url, data, page=page)
        elif answer is None:
            raise said
        self.figures.actions[f"{method.upper()} {'page' if page else 'api'}"] += 1
        if answer.status_code >= 500:
            self._fail(
                f"{person.name}: {method.upper()} {url} {data} answered {answer.status_code}"
            )
        elif answer.status_code >= 400:
            self.figures.refusals[_code_of(answer)] += 1
        return answer

    @staticmethod
    def _request(client, method: str, url: str, data, *, page: bool):
        if page:
            return getattr(client, method)(url, data or {})
        return getattr(client, method)(url, data or {}, format="json")

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
        if self.winding:
            return
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
        elif roll < 0.375:
            self._guarded(f"{person.name} downloads their data", self._download, person)

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
                outcome = self._mail_door(raw)
                self.figures.actions["email reply"] += 1
                self._note(f"{person.name} replies {move!r} to {game.pk}@{seq}: {outcome}")
                return True
        return False

    def _mail_door(self, raw: bytes):
        """A reply handed to the email door; where a database fault struck in it, the mail
        server hands it over again (the message was not taken), as servers do."""
        try:
            return mail.reply_receive(raw=raw)
        except DatabaseError as error:
            if not self.mid.take_db_struck():
                raise
            connection.close_if_unusable_or_obsolete()
            self._note(f"an emailed reply failed ({error}); handed over again")
            return mail.reply_receive(raw=raw)

    def _plan(self, person: Person, game: Game) -> None:
        """A plan while another player is to move: a move for the next turn, or a line of
        the moves expected from the others with answers (as far as the next draw)."""
        table = repository.game_table(game)
        seat = seat_of(game, person.user)
        moves = [m["move"] for m in legal_moves_of(table)]
        if seat is None or not moves:
            return
        body = {"lines": [], "next_move": "", "expected_seq": game.last_seq}
        if self.rng.random() < 0.5:
            body["lines"] = [self._line(table, seat)]
        else:
            body["next_move"] = self.rng.choice(moves)
        answer = self._call(person, "put", f"/api/games/{game.pk}/plan/", body)
        self._note(f"{person.name} plans {body} in {game.pk} -> {answer.status_code}")

    def _line(self, table, seat: int) -> list[str]:
        """Moves from the position, drawn by the seed, until ``seat`` has answered twice,
        the game ends or tiles are drawn."""
        engine, state = table.engine, table.state
        line, answers = [], 0
        while answers < PLAN_ANSWERS and not engine.is_over(state):
            mover = engine.to_move(state)
            command = self.rng.choice(engine.legal_commands(state))
            line.append(engine.format(command))
            answers += mover == seat
            events, state = engine.decide_and_evolve(state, command, random.Random(0))
            if any(engine.is_barrier(event) for event in events):
                break
        return line

    def _spectate(self) -> None:
        """Someone watches a public game in play that they do not play, as its open page
        does: the page, then its poll for what changed since the seq it showed; the poll
        says the game's last seq, and its news was published (``_check_step``)."""
        if not self.people or self.rng.random() < 0.7:
            return
        person = self.rng.choice(self.people)
        games = list(
            Game.objects.filter(status=Game.Status.ACTIVE, private=False)
            .exclude(seats__user=person.user)
            .order_by("pk")
            .values_list("pk", "last_seq")
        )
        if not games:
            return
        game_id, seq = self.rng.choice(games)
        seen = person.watching.get(game_id)
        if seen is None:
            self._call(person, "get", f"/games/{game_id}/", page=True)
        else:
            poll = f"/games/{game_id}/live?seq={seen}&chat=0"
            answer = self._call(person, "get", poll, page=True)
            if answer.status_code != 200:
                self._fail(f"{person.name} watching: {poll} answered {answer.status_code}")
        person.watching[game_id] = seq
        self.figures.actions["watched"] += 1

    def _vacation(self, person: Person) -> None:
        answer = self._call(
            person, "post", "/mail/preferences/", {"action": "vacation_start"}, page=True
        )
        person.away_until = self.clock.now + timedelta(days=self.rng.choice((1, 2, 3)))
        self._note(
            f"{person.name} goes on vacation until {person.away_until:%m-%d}"
            f" -> {answer.status_code}"
        )

    def _download(self, person: Person) -> None:
        """The account page's "Download your data": the worker builds it (and it is
        deleted if another person in it closes their account, issue 52)."""
        answer = self._call(person, "post", "/account/data/", page=True)
        self._note(f"{person.name} asks for their data -> {answer.status_code}")

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
            "name": f"{display_name(person.user)}'s cup {self.figures.steps}",
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
        what = self.rng.choice(("pause", "extend", "default", "revert"))
        reason = "a report"
        seated = set(game.seats.values_list("user_id", flat=True))
        outsiders = [p for p in self.people if p.user.pk not in seated]
        if outsiders and self.rng.random() < NAMED_IN_REASONS:
            named = self.rng.choice(outsiders)
            reason = f"{display_name(named.user)} reported it"
            self.named_in.setdefault(named.name, set()).add(game.pk)
        # Through the admin's moderation form, as a moderator acts.
        match what:
            case "pause":
                self._moderation_form(game, action="pause", reason=reason)
                self._moderation_form(game, action="resume", reason="settled")
            case "extend":
                self._moderation_form(game, action="extend_deadline", reason="asked", hours=12)
            case "default":
                self._moderation_form(game, action="default_move", reason="stuck")
            case "revert":
                to_seq = max(1, game.last_seq - self.rng.randrange(1, 4))
                self._moderation_form(game, action="revert", reason="a mistake", to_seq=to_seq)
        self._note(f"moderator: {what} in {game.pk}")

    def _moderation_form(self, game: Game, **fields) -> bool:
        """Send the admin's moderation form of ``game``; whether it was recorded (a refusal
        is said on the form again, with what was wrong)."""
        answer = self._call(
            self.moderator, "post", f"/admin/games/game/{game.pk}/moderate/", fields, page=True
        )
        if answer.status_code == 302:
            return True
        if answer.status_code == 200:
            self.figures.refusals[f"moderation {fields['action']}"] += 1
        else:
            self._fail(f"moderating game {game.pk} {fields} answered {answer.status_code}")
        return False

    def _seats_to_computers(self) -> None:
        """The people have left: the moderator gives each of their seats in a game still in
        play to a computer player, through the admin's form, so that every game can end."""
        for game in Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk"):
            for seat in game.seats.filter(user__isnull=False, status=Seat.Status.JOINED).order_by(
                "position"
            ):
                done = self._moderation_form(
                    game,
                    action="replace_seat_bot",
                    reason="the player has left",
                    seat=seat.position,
                    level="easy",
                )
                self._note(f"moderator: seat {seat.position} of {game.pk} to a computer -> {done}")

    # --- the end of the story ------------------------------------------------------------

    def _going(self) -> bool:
        """Whether a game or a tournament has not ended yet."""
        return (
            Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).exists()
            or Tournament.objects.exclude(
                status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
            ).exists()
        )

    def _wind_down(self) -> None:
        """The story's end, after its days, whatever the seed: nothing new is opened and the
        games waiting for players are called off or left; the people play on for
        ``PLAYING_ON_DAYS``, then leave, and computers take their seats; the clock runs on
        until every game and tournament has ended (a failure after ``MOST_DAYS_TO_END``)."""
        self.winding = True
        self._note("the days are over: nothing new is opened")
        for game in Game.objects.filter(status=Game.Status.OPEN).order_by("pk"):
            for person in self.people:
                if person.user.pk == game.created_by_id:
                    self._call(person, "post", f"/games/{game.pk}/cancel/", page=True)
                elif game.seats.filter(user=person.user).exists():
                    self._call(person, "post", f"/api/games/{game.pk}/leave/")
        leave_at = self.clock.now + timedelta(days=PLAYING_ON_DAYS)
        give_up_at = leave_at + timedelta(days=MOST_DAYS_TO_END)
        while self._going():
            if self.clock.now >= give_up_at:
                games = Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
                tournaments = Tournament.objects.exclude(
                    status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
                )
                self._fail(
                    f"{MOST_DAYS_TO_END} days after the people left, still going: games "
                    f"{list(games.values_list('pk', 'status')[:10])}, tournaments "
                    f"{list(tournaments.values_list('pk', 'status'))}"
                )
                self._raise_if_failed()
            if not self.left and self.clock.now >= leave_at:
                self.left = True
                self._note("the people leave")
            self._step()

    # --- invariants ----------------------------------------------------------------------

    def _check_step(self) -> None:
        """What must hold after every step."""
        now = self.clock.now
        db_struck = self.mid.db_faults() > self.db_faults_seen
        self.db_faults_seen = self.mid.db_faults()
        for record in self.errors.records:
            if _expected(record, db_struck=db_struck):
                continue
            told = "".join(traceback.format_exception(*record.exc_info)) if record.exc_info else ""
            self._fail(f"logged {record.levelname} by {record.name}: {record.getMessage()}\n{told}")
        self.errors.records.clear()
        # A row whose worker was killed before the hand-over waits for its claim to go
        # stale; the sweep then sends it. One killed after it is in doubt (``_check_wire``).
        stale = timedelta(seconds=settings.MAIL_CLAIM_STALE_SECONDS)
        waiting = [pk for pk, at in self.mid.killed_before.items() if now < at + stale]
        waiting += self.mid.killed_after
        late = Outbox.objects.filter(
            sent_at__isnull=True, cancelled_at__isnull=True, due_at__lte=now
        ).exclude(pk__in=waiting)
        for row in late[:5]:
            self._fail(f"outbox {row.pk} ({row.kind} to {row.recipient}) due {row.due_at} not sent")
        lost = Outbox.objects.filter(
            cancelled_at__isnull=False, withdrawn_because="", in_doubt_at__isnull=True
        )
        for row in lost[:5]:
            self._fail(f"outbox {row.pk} ({row.kind}) given up: {row.last_error}")
        self._check_wire()
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
        # In the games' order: which checks read the pages too goes by their count.
        moved = (
            Game.objects.exclude(status=Game.Status.OPEN)
            .order_by("pk")
            .values_list("pk", "last_seq")
        )
        told = self._news_heard()
        for game_id, seq in moved:
            if self.seen_seq.get(game_id) != seq:
                self.seen_seq[game_id] = seq
                self._guarded(f"checking game {game_id}", self._check_game, game_id)
                if news.game_topic(game_id) not in told:
                    self._fail(f"game {game_id} moved on and its open pages were not told")
        self._raise_if_failed()

    def _check_wire(self) -> None:
        """Nothing lost, nothing doubled, counted where it arrives: no Message-ID twice at
        the SMTP server, every email sent since the last step there once, every push sent
        accepted once by the push service; a row in doubt only where a worker was killed
        after handing it over (and then it arrived once)."""
        arrived = Counter(str(message["Message-ID"]) for message in self.mail.messages)
        for message_id, times in arrived.items():
            if times > 1 and message_id not in self.doubled:
                self.doubled.add(message_id)
                self._fail(f"the email {message_id} arrived {times} times")
        since = {"sent_at__gt": self.wire_checked}
        doubt = {"in_doubt_at__gt": self.wire_checked}
        for row in Outbox.objects.filter(Q(**since) | Q(**doubt)).order_by("pk"):
            if arrived[row.message_id] != 1:
                self._fail(f"outbox {row.pk} ({row.kind}) arrived {arrived[row.message_id]} times")
        for row in PushDelivery.objects.filter(Q(**since) | Q(**doubt)).order_by("pk"):
            if self.mid.pushed[row.pk] != 1:
                self._fail(f"push {row.pk} ({row.kind}) taken {self.mid.pushed[row.pk]} times")
        for row in Delivery.objects.filter(**doubt).exclude(pk__in=self.mid.killed_after):
            self._fail(f"delivery {row.pk} ({row.channel}) in doubt with no worker killed")
        self.wire_checked = self.clock.now
        self.figures.checks["wire"] += 1

    def _news_heard(self) -> set[str]:
        """The topics published since the last step (``games.news``): the open pages'
        streams hear exactly these."""
        # A mark of our own, published now: Redis hands a subscriber its messages in the
        # order it took them, so all that came before the mark is in by the time it is.
        mark = news.channel(f"community-mark-{os.getpid()}")
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
        seated = game.seats.exclude(user=None).order_by("position").values_list("user", flat=True)
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
        if final and self.known_by:
            self._guarded("nothing readable of the closed accounts", self._check_nothing_readable)
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


def _expected(record: logging.LogRecord, *, db_struck: bool) -> bool:
    """Whether an error logged is the site's answer to a fault injected in mid-step: a row
    in doubt after a killed worker (checked at the wire instead), or a database error
    where a database fault struck."""
    if "in doubt" in record.getMessage():
        return True
    if db_struck and record.name == "django.request":
        # The door's own line about the answer (500) to a request a fault struck.
        return True
    error = record.exc_info[1] if record.exc_info else None
    while db_struck and error is not None:
        if isinstance(error, DatabaseError | psycopg.Error):
            return True
        error = error.__cause__ or error.__context__
    return False


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
            "faults in mid-step": dict(sorted(community.mid.struck.items())),
            "checks": dict(figures.checks),
            "accounts closed": community.closed_kinds,
            "failures": len(community.failures),
            "seconds": round(figures.seconds, 1),
        },
        indent=2,
    )
