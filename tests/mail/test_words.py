"""The words of the players' languages in email replies
(``games.notify.channels.email.words``): tables with no ambiguous word, read whole,
lower-case and without accents, English always too."""

import pytest

from games.notify.channels.email import words
from games.registry import game_type


@pytest.mark.parametrize(("game", "language"), sorted(words.VOCABULARIES))
def test_every_table_is_unambiguous_and_its_example_reads(game, language):
    vocabulary = words.vocabulary(game, language)
    assert vocabulary.words, "each language has words for each game"
    example = words.example(game, language)
    command = game_type(game).engine.parse(words.neutral(game, language, example))
    assert command is not None


def test_a_word_meaning_two_things_is_refused_when_the_tables_load(monkeypatch):
    monkeypatch.setitem(
        words.words_of("azul").WORDS, "xx", {"blue": ("azul",), "yellow": ("azul",)}
    )
    with pytest.raises(words.AmbiguousWord):
        words._vocabulary("azul", "xx")
    monkeypatch.setitem(words.words_of("azul").WORDS, "xx", {"": ("w",)})
    with pytest.raises(words.AmbiguousWord, match="means"):
        words._vocabulary("azul", "xx")


@pytest.mark.parametrize(
    ("game", "language", "text", "notation"),
    [
        ("azul", "es", "azul de la fábrica 2 a la línea 3", "factory 2 blue line 3"),
        ("azul", "es", "ROJO DEL CENTRO A LA LINEA DE SUELO", "centre red floor"),
        ("azul", "es", "fábrica 4 negro 5", "factory 4 black line 5"),
        ("azul", "pt", "azuis da fábrica 1 para a linha 5", "factory 1 blue line 5"),
        ("azul", "pt", "vermelho do centro para o chão", "centre red floor"),
        ("azul", "pl", "niebieskie z warsztatu 2 do linii 3", "factory 2 blue line 3"),
        ("azul", "pl", "czarne ze srodka na podloge", "centre black floor"),
        ("azul", "pl", "ściana 2", "wall 2"),
        ("azul", "es", "F3 blue 4", "F3 blue 4"),
        ("summer-pavilion", "es", "amarillo de la fábrica 3", "y 3"),
        ("summer-pavilion", "es", "azul en la estrella azul, espacio 6", "b b 6"),
        ("summer-pavilion", "es", "Morado centro", "p c"),
        ("summer-pavilion", "pt", "passar verde verde", "pass g g"),
        ("summer-pavilion", "pt", "bônus roxo", "bonus p"),
        ("summer-pavilion", "pl", "żółte z warsztatu 3", "y 3"),
        ("summer-pavilion", "pl", "Pasuję zielone", "pass g"),
        ("summer-pavilion", "es", "pass ggr", "pass ggr"),
        ("miyabi", "es", "Paso", "pass"),
        ("miyabi", "pt", "passo", "pass"),
        ("miyabi", "pl", "pasuje", "pass"),
        ("miyabi", "pl", "LP3 b2 r90", "LP3 b2 r90"),
    ],
)
def test_words_become_the_notation(game, language, text, notation):
    assert words.neutral(game, language, text) == notation
    game_type(game).engine.parse(notation)


def test_only_whole_words_are_read_and_english_needs_no_table():
    assert words.neutral("azul", "es", "azulado 3") == "azulado 3", "not part of a word"
    assert words.neutral("azul", "en", "azul de la fábrica 2") == "azul de la fábrica 2"
    assert words.neutral("summer-pavilion", "es", "bb6+2") == "bb6+2"
    assert words.vocabulary("azul", "en") is None


def test_no_filler_is_a_word_the_notation_reads():
    """Portuguese "o" (the) is Summer Pavilion's orange and Polish "w" (in) Azul's white:
    neither is dropped where the notation reads it."""
    assert words.neutral("azul", "pl", "w") == "w"
    assert "o" not in words.vocabulary("summer-pavilion", "pt").words
    assert "y" not in words.vocabulary("summer-pavilion", "es").words
