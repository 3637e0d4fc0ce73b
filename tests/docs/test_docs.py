"""The docs say what the code does: every verb, option and policy key is documented, every page is
in the site's navigation, and the README's links into docs/ lead somewhere.

Verbs and options come from the real parsers (`build_parser`), policy keys from the tables
`parse_policy` reads through, so a new flag or key fails here until its page names it.
"""

import argparse
import re
from pathlib import Path

import pytest
import yaml
from markdown.extensions.toc import slugify

from lazaretto.app.cli import COMMANDS, build_parser
from lazaretto.proxy.policy import SERVER_KEYS, TABLE_KEYS, TOP_KEYS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
COMMAND_PAGE = DOCS / "commands.md"
POLICY_PAGE = DOCS / "policy.md"
# argparse's own, on every parser: the command reference says so once, at its top.
HELP = {"-h", "--help"}
_HEADING = re.compile(r"^(#{1,6}) +(.+?) *$", re.MULTILINE)
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """("pin export", its parser) for every verb and every subcommand below it."""
    found = []
    for name in COMMANDS:
        _, parser = build_parser([name])
        assert parser is not None, name
        pending = [(name, parser)]
        while pending:
            path, current = pending.pop()
            found.append((path, current))
            for action in current._actions:
                if isinstance(action, argparse._SubParsersAction):
                    pending += [(f"{path} {sub}", child) for sub, child in action.choices.items()]
    return found


PARSERS = _parsers()
OPTIONS = [
    (path, option)
    for path, parser in PARSERS
    for action in parser._actions
    for option in action.option_strings
    if option not in HELP
]


def _sections(page: str) -> dict[str, str]:
    """Each heading's own text, up to the next heading of any level, by the heading's words."""
    marks = list(_HEADING.finditer(page))
    return {
        mark.group(2): page[mark.end() : marks[i + 1].start() if i + 1 < len(marks) else None]
        for i, mark in enumerate(marks)
    }


def _named_in_code(text: str, name: str) -> bool:
    """Whether `name` stands as a whole word (options: with its dashes) inside a code span."""
    word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    return any(word.search(span) for span in _CODE_SPAN.findall(text))


def test_every_subcommand_parser_was_found():
    # The walk reaches the nested parsers, so their options are checked below too.
    paths = {path for path, _ in PARSERS}
    assert set(COMMANDS) <= paths
    assert {"pin export", "pin check", "station install", "station run"} <= paths


@pytest.mark.parametrize("path", [path for path, _ in PARSERS])
def test_every_verb_has_its_own_section_in_the_command_reference(path):
    assert f"lazaretto {path}" in _sections(COMMAND_PAGE.read_text(encoding="utf-8")), (
        f"docs/commands.md has no '## lazaretto {path}' section"
    )


@pytest.mark.parametrize(("path", "option"), OPTIONS, ids=[f"{p}:{o}" for p, o in OPTIONS])
def test_every_option_is_documented_in_its_verbs_section(path, option):
    section = _sections(COMMAND_PAGE.read_text(encoding="utf-8")).get(f"lazaretto {path}", "")
    assert _named_in_code(section, option), (
        f"`{option}` of `lazaretto {path}` is not in its section of docs/commands.md"
    )


def test_the_help_option_every_verb_takes_is_documented_once():
    intro = COMMAND_PAGE.read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert all(_named_in_code(intro, option) for option in HELP)


def _policy_names() -> list[str]:
    """Every key as the policy reference writes it: a table as `[name]` (`[servers.NAME]` for the
    servers' entries), the others by their dotted path."""
    tables = {"servers": "[servers.NAME]", **{table: f"[{table}]" for table in TABLE_KEYS}}
    names = [tables.get(key, key) for key in sorted(TOP_KEYS)]
    names += [f"servers.NAME.{key}" for key in sorted(SERVER_KEYS)]
    names += [
        f"{table}.{key}" for table, keys in sorted(TABLE_KEYS.items()) for key in sorted(keys)
    ]
    return names


@pytest.mark.parametrize("name", _policy_names())
def test_every_policy_key_is_in_the_policy_reference(name):
    spans = set(_CODE_SPAN.findall(POLICY_PAGE.read_text(encoding="utf-8")))
    assert name in spans, f"`{name}` is not in docs/policy.md"


def _nav_pages(entries) -> list[str]:
    pages = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


def test_every_page_is_in_the_navigation_and_every_entry_is_a_page():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_pages(config["nav"])
    pages = sorted(str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md"))
    assert sorted(nav) == pages
    assert len(nav) == len(set(nav))


README_LINK = re.compile(r"\]\((docs/[^)#\s]*)(?:#([^)\s]+))?\)")


def test_the_readme_links_into_docs_lead_to_pages_and_headings():
    links = README_LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert links
    for target, anchor in links:
        page = ROOT / target
        assert page.is_file(), f"README links to {target}, which does not exist"
        if anchor:
            headings = _sections(page.read_text(encoding="utf-8"))
            assert anchor in {slugify(heading, "-") for heading in headings}, (
                f"README links to {target}#{anchor}, a heading {target} does not have"
            )


def test_the_sites_screenshots_are_the_repositorys():
    # The site can only show files under docs/; the screenshot script writes screenshots/.
    originals = {path.name: path.read_bytes() for path in (ROOT / "screenshots").glob("*.svg")}
    copies = {path.name: path.read_bytes() for path in (DOCS / "screenshots").glob("*.svg")}
    assert copies == originals, (
        "copy screenshots/*.svg to docs/screenshots/ after regenerating them"
    )
