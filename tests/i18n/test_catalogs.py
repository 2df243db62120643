"""The four languages' catalogs (``locale/``): complete, not fuzzy, with the same
placeholders as the English, and up to date with the texts marked in the code."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]|\{(\w*)\}")
SOURCES = ("azulsite", "events", "games", "templates", "manage.py")
NOT_SOURCE = shutil.ignore_patterns("__pycache__", "*.mo")


def catalog(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def placeholders(text: str) -> list[str]:
    return sorted(m.group(0) for m in PLACEHOLDER.finditer(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    po = catalog(language)
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, f"{len(untranslated)} untranslated in {language}: {untranslated[:10]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {language}: {fuzzy[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language):
    wrong = []
    for entry in catalog(language).translated_entries():
        if entry.msgid_plural:
            forms = entry.msgstr_plural.values()
            # A form for exactly one may say "one" instead of the number.
            expected = {tuple(placeholders(entry.msgid_plural))}
            expected.add(tuple(placeholders(entry.msgid)))
            wrong += [entry.msgid for form in forms if tuple(placeholders(form)) not in expected]
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            wrong.append(entry.msgid)
    assert not wrong, f"placeholders differ in {language}: {wrong[:10]}"


def test_polish_has_its_plural_forms_one_few_and_many():
    """Polish: 1 płytka, 2–4 płytki, 5 płytek (and the CLDR's fourth form, for fractions)."""
    po = catalog("pl")
    forms = int(re.search(r"nplurals=(\d)", po.metadata["Plural-Forms"]).group(1))
    assert forms >= 3
    plurals = [e for e in po.translated_entries() if e.msgid_plural]
    assert plurals and all(len(e.msgstr_plural) == forms for e in plurals)
    few_and_many = [e for e in plurals if e.msgstr_plural[1] != e.msgstr_plural[2]]
    assert few_and_many, "the forms for 2–4 and for 5 differ in Polish"


def test_catalogs_hold_every_text_marked_in_the_code(tmp_path):
    """Extracting the texts again (``make messages``) would change no catalog."""
    for source in SOURCES:
        if (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, tmp_path / source, ignore=NOT_SOURCE)
        else:
            shutil.copy(ROOT / source, tmp_path / source)
    shutil.copytree(ROOT / "locale", tmp_path / "locale")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "-l", LANGUAGES[0]],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    extracted = polib.pofile(str(tmp_path / "locale" / LANGUAGES[0] / "LC_MESSAGES" / "django.po"))
    ours = {(e.msgctxt, e.msgid) for e in catalog(LANGUAGES[0]) if not e.obsolete}
    wanted = {(e.msgctxt, e.msgid) for e in extracted if not e.obsolete}
    assert wanted - ours == set(), "texts missing from the catalogs: run `make messages`"
    assert ours - wanted == set(), "texts no longer in the code: run `make messages`"
