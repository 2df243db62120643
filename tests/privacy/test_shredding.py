"""Crypto-shredding (events/shredding.py, issue 52): a text sealed under several keys is
readable while every one of them exists and unreadable, for good, once any one is
shredded; a text sealed before issue 52 (under its stream's key alone) still reads."""

import pytest
from cryptography.fernet import Fernet

from events.models import StreamKey
from events.shredding import (
    SEALED,
    address_key,
    person_key,
    seal_for,
    shred,
    unseal,
)

pytestmark = pytest.mark.django_db

TEXT = "Dorothea (dora@example.org) asked them to wait"


@pytest.mark.parametrize("shredded", ["game:7", person_key(12), address_key("Dora@Example.org")])
def test_a_text_sealed_under_several_keys_goes_when_any_one_is_shredded(shredded):
    keys = ["game:7", person_key(12), address_key("dora@example.org")]
    sealed = seal_for(keys, TEXT)
    assert "Dorothea" not in sealed and "dora@" not in sealed
    assert unseal("game:7", sealed) == TEXT

    shred([shredded])

    assert unseal("game:7", sealed) == ""
    assert set(StreamKey.objects.values_list("stream", flat=True)) == set(keys) - {shredded}


def test_an_address_key_names_no_address_and_ignores_case():
    assert address_key("Dora@Example.org ") == address_key("dora@example.org")
    assert "dora" not in address_key("dora@example.org")


def test_a_text_sealed_before_issue_52_under_its_streams_key_still_reads():
    key = Fernet.generate_key()
    StreamKey.objects.create(stream="game:3", key=key.decode())
    sealed = SEALED + Fernet(key).encrypt(b"an old reason").decode()
    assert unseal("game:3", sealed) == "an old reason"
    assert unseal("game:3", "time_ran_out") == "time_ran_out"  # a code, never sealed
    shred(["game:3"])
    assert unseal("game:3", sealed) == ""
