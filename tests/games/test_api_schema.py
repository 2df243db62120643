"""The OpenAPI description of the API, and its docs page served without the internet."""

import json
import re

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    "/api/token/": {"post"},
    "/api/data-export/": {"get", "post"},
    "/api/data-export/{export_id}/archive/": {"get"},
    "/api/games/": {"get", "post"},
    "/api/games/{game_id}/": {"get"},
    "/api/games/{game_id}/state/": {"get"},
    "/api/games/{game_id}/events/": {"get"},
    "/api/games/{game_id}/legal-moves/": {"get"},
    "/api/games/{game_id}/export/": {"get"},
    "/api/games/{game_id}/analysis/": {"get", "post"},
    "/api/games/{game_id}/join/": {"post"},
    "/api/games/{game_id}/leave/": {"post"},
    "/api/games/{game_id}/cancel/": {"post"},
    "/api/games/{game_id}/resign/": {"post"},
    "/api/games/{game_id}/moves/": {"post"},
    "/api/games/{game_id}/undo/": {"post"},
    "/api/games/{game_id}/grant-day/": {"post"},
    "/api/games/{game_id}/takebacks/": {"post"},
    "/api/games/{game_id}/takebacks/{request_id}/answer/": {"post"},
    "/api/games/{game_id}/plan/": {"get", "put", "delete"},
    "/api/players/{player_id}/": {"get"},
    "/api/players/{player_id}/ratings/{game}/": {"get"},
    "/api/leaderboard/{game}/": {"get"},
    "/api/archive/": {"get"},
    "/api/archive/export/": {"get"},
    "/api/push-subscriptions/": {"get", "post", "delete"},
    "/api/tournaments/": {"get", "post"},
    "/api/tournaments/{tournament_id}/": {"get"},
    "/api/tournaments/{tournament_id}/join/": {"post"},
    "/api/tournaments/{tournament_id}/withdraw/": {"post"},
    "/api/tournaments/{tournament_id}/start/": {"post"},
    "/api/tournaments/{tournament_id}/pause/": {"post"},
    "/api/tournaments/{tournament_id}/resume/": {"post"},
    "/api/tournaments/{tournament_id}/cancel/": {"post"},
    "/api/games/{game_id}/chat/": {"post"},
    "/api/account/": {"get"},
    "/api/bots/": {"get"},
    "/api/bot/ladder/{game}/": {"get"},
    "/api/challenges/": {"get", "post"},
    "/api/challenges/{challenge_id}/accept/": {"post"},
    "/api/challenges/{challenge_id}/decline/": {"post"},
    "/api/challenges/{challenge_id}/cancel/": {"post"},
    "/api/bot/stream/event": {"get"},
    "/api/bot/game/stream/{game_id}": {"get"},
}


def test_the_schema_is_valid_openapi_in_yaml_and_json(client):
    as_yaml = client.get("/api/schema/")
    assert as_yaml.status_code == 200
    schema = yaml.safe_load(as_yaml.content)
    validate_schema(schema)
    as_json = client.get("/api/schema/?format=json")
    assert as_json.status_code == 200 and json.loads(as_json.content) == schema
    assert {path: set(ops) - {"parameters"} for path, ops in schema["paths"].items()} == ENDPOINTS


def test_the_schema_documents_bodies_errors_and_retries(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    move = schema["paths"]["/api/games/{game_id}/moves/"]["post"]
    body = move["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/MoveSubmit")
    assert {"200", "201", "400", "401", "403", "404", "409"} <= set(move["responses"])
    assert "Idempotency-Key" in {parameter["name"] for parameter in move["parameters"]}
    error = schema["components"]["schemas"]["Error"]
    assert {"code", "message"} <= set(error["required"])
    export = schema["paths"]["/api/games/{game_id}/export/"]["get"]["responses"]["200"]
    assert "application/x-ndjson" in export["content"]
    for stream in ("/api/bot/stream/event", "/api/bot/game/stream/{game_id}"):
        answers = schema["paths"][stream]["get"]["responses"]
        assert "application/x-ndjson" in answers["200"]["content"]
        assert {"401", "503"} <= set(answers)


def test_generating_the_schema_raises_no_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", tmp_path / "api.yaml")


def test_the_docs_page_loads_its_scripts_from_this_site(client):
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(asset.endswith("swagger-ui-bundle.js") for asset in assets)
    assert not re.search(r"https?://", " ".join(assets))
    for asset in assets:
        fetched = client.get(asset)
        assert fetched.status_code == 200, asset
        assert b"".join(fetched.streaming_content if fetched.streaming else [fetched.content])
