"""scripts/mutate.py's equivalent-mutant entries: keyed by the code of the changed token's
line (and which of several identical changes), never by a line number; an entry that
fits no mutant (or several) hides nothing and is warned about."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts.loading import load_script

mutate = load_script("mutate.py", "mutate_script")

SOURCE = """\
def pay(stake, shoot, amount):
    total = (shoot or 0) + (amount or 0)  # chips
    if (stake > 1
            and total < 10):
        return total
    return stake
"""


def _mutants(source: str = SOURCE) -> list:
    return mutate.mutants_of("engine/x.py", source)


def _only(mutants: list, old: str, new: str) -> list:
    return [mu for mu in mutants if (mu.old, mu.new) == (old, new)]


def _matched(mutants: list, *lines: str) -> tuple[list, list[str]]:
    entries = [mutate.parse_equivalent(line, n) for n, line in enumerate(lines, 1)]
    assert None not in entries
    found, warnings = mutate.match_equivalents(mutants, entries)
    by_index = {mu.index: mu for mu in mutants}
    return [by_index[i] for _, i in sorted(found)], warnings


def test_an_entry_names_the_code_its_change_and_which_of_identical_changes() -> None:
    zeros = _only(_mutants(), "0", "1")
    assert [(mu.at, mu.occurrence, mu.occurrences) for mu in zeros] == [(2, 1, 2), (2, 2, 2)]
    assert zeros[1].col > zeros[0].col  # numbered in reading order
    # the comment is no part of the code
    assert zeros[1].entry() == (
        "- `engine/x.py` `total = (shoot or 0) + (amount or 0)`: `0` -> `1` #2"
    )
    # a change the module has once needs no number
    (gt,) = _only(_mutants(), ">", ">=")
    assert gt.entry() == "- `engine/x.py` `if (stake > 1`: `>` -> `>=`"
    # an operator on a later line of its expression: keyed by the line it is on
    (and_,) = _only(_mutants(), "and", "or")
    assert (and_.line, and_.at, and_.text) == (3, 4, "and total < 10):")


def test_parse_reads_back_what_the_script_prints() -> None:
    e = mutate.parse_equivalent(
        "- `engine/x.py` `total = (shoot or 0) + (amount or 0)`: `0` -> `1` #2 - the reason, #3"
    )
    assert e.key() == ("engine/x.py", "total = (shoot or 0) + (amount or 0)", "0", "1")
    assert e.occurrence == 2
    e = mutate.parse_equivalent("- `engine/x.py` `if a -> b:`: `not x` -> `x` - why")
    assert (e.text, e.old, e.new, e.occurrence) == ("if a -> b:", "not x", "x", None)
    # code holding a backtick goes in a longer run of them, and reads back the same
    assert mutate._code_span("x = '`'") == "`` x = '`' ``"
    e = mutate.parse_equivalent("- `engine/x.py` `` x = '`' ``: `0` -> `1`")
    assert e.text == "x = '`'"
    assert mutate.parse_equivalent("- `engine/x.py` line 12: `0` -> `1` - old form") is None
    assert mutate.parse_equivalent("  continued reason text") is None


def test_each_mutant_s_printed_entry_matches_that_mutant_alone() -> None:
    """What --survivors prints, pasted as an entry, leaves out exactly that mutant: for
    every mutant of every mutated module."""
    for module in mutate.MODULES:
        mutants = mutate.mutants_of(module)
        entries = [mutate.parse_equivalent(f"{mu.entry()} - why", mu.index) for mu in mutants]
        found, warnings = mutate.match_equivalents(mutants, entries)
        assert warnings == []
        assert found == {(module, mu.index) for mu in mutants}
        for mu, entry in zip(mutants, entries, strict=True):
            one, _ = mutate.match_equivalents(mutants, [entry])
            assert one == {(module, mu.index)}, mu


def test_an_entry_still_matches_after_lines_move() -> None:
    entry = "- `engine/x.py` `total = (shoot or 0) + (amount or 0)`: `0` -> `1` #2 - why"
    before, _ = _matched(_mutants(), entry)
    moved = "import os\n\n\ndef other(a):\n    return a + 0\n\n\n" + SOURCE
    after, warnings = _matched(_mutants(moved), entry)
    assert warnings == []
    assert [(mu.line, mu.col) for mu in before] == [(2, 38)]
    assert [(mu.line, mu.col) for mu in after] == [(9, 38)]


def test_a_numbered_entry_leaves_out_only_its_own_change() -> None:
    first = "- `engine/x.py` `total = (shoot or 0) + (amount or 0)`: `0` -> `1` #1 - why"
    found, warnings = _matched(_mutants(), first)
    assert warnings == []
    assert [mu.col for mu in found] == [22]  # the `0` of `shoot or 0`, not of `amount`


def test_an_unnumbered_entry_that_fits_several_mutants_leaves_out_none() -> None:
    found, warnings = _matched(
        _mutants(), "- `engine/x.py` `total = (shoot or 0) + (amount or 0)`: `0` -> `1` - why"
    )
    assert found == []
    assert len(warnings) == 1 and "matches 2 mutants" in warnings[0]
    assert "#1 to #2" in warnings[0]


def test_a_stale_entry_hides_no_survivor_and_is_warned_about() -> None:
    entries = [
        "- `engine/x.py` `if (stake > 1`: `>` -> `>=` - still there",
        "- `engine/x.py` `if (stake > 2`: `>` -> `>=` - the code changed",
        "- `engine/x.py` `if (stake > 1`: `1` -> `2` #2 - no second one",
        "- `engine/x.py` `return stake`: `>` -> `>=` - no such change on that code",
        "- `engine/y.py` `if (stake > 1`: `>` -> `>=` - another module: not looked at",
    ]
    found, warnings = _matched(_mutants(), *entries)
    assert [(mu.text, mu.old) for mu in found] == [("if (stake > 1", ">")]
    assert len(warnings) == 3
    assert all("stale, matches no mutant" in w for w in warnings)
    assert [w.split(":")[1] for w in warnings] == ["2", "3", "4"]  # the file's lines


def test_two_entries_for_one_mutant_are_warned_about() -> None:
    line = "- `engine/x.py` `if (stake > 1`: `>` -> `>=` - why"
    found, warnings = _matched(_mutants(), line, line)
    assert len(found) == 1
    assert len(warnings) == 1 and "names the same mutant as line 1" in warnings[0]


def test_an_edited_comment_keeps_the_entry() -> None:
    entry = "- `engine/x.py` `total = (shoot or 0) + (amount or 0)`: `0` -> `1` #2 - why"
    edited = SOURCE.replace("# chips", "# chips, both bets")
    found, warnings = _matched(_mutants(edited), entry)
    assert warnings == [] and len(found) == 1


def test_old_line_number_entries_are_reported_not_read(tmp_path: Path) -> None:
    f = tmp_path / "eq.md"
    f.write_text(
        "# Equivalent\n\n"
        "- `engine/x.py` line 2: `0` -> `1` - old form\n"
        "- `engine/x.py` `if (stake > 1`: `>` -> `>=` - new form,\n"
        "  continued\n"
    )
    entries, warnings = mutate.load_equivalents(f)
    assert [(e.text, e.where) for e in entries] == [("if (stake > 1", 4)]
    assert len(warnings) == 1 and "eq.md:3: keyed by line number" in warnings[0]


def test_list_marks_equivalents_and_warns_about_stale_entries(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = "engine/punto_banco/rules.py"
    (target, *_) = [mu for mu in mutate.mutants_of(module) if mu.occurrences == 1]
    f = tmp_path / "mutate_equivalent.md"
    f.write_text(
        f"{target.entry()} - why\n- `{module}` `gone = 1`: `1` -> `2` - code since removed\n"
    )
    monkeypatch.setattr(mutate, "EQUIVALENT_FILE", f)
    monkeypatch.chdir(tmp_path)  # main() moves to the project
    assert mutate.main(["--list", module]) == 0
    out, err = capsys.readouterr()
    marked = [line for line in out.splitlines() if line.endswith("(equivalent)")]
    assert marked == [f"{module}:{target.at}  {target.entry()}  (equivalent)"]
    assert "WARNING" in err and "stale, matches no mutant" in err and "`gone = 1`" in err


def test_every_entry_of_the_equivalent_file_matches_one_mutant() -> None:
    """No stale, ambiguous, doubled or old-form entry in scripts/mutate_equivalent.md: an
    edit to a line an entry names must update the entry."""
    entries, warnings = mutate.load_equivalents()
    assert warnings == []
    assert {e.module for e in entries} <= set(mutate.MODULES)
    mutants = [mu for m in sorted({e.module for e in entries}) for mu in mutate.mutants_of(m)]
    found, stale = mutate.match_equivalents(mutants, entries)
    assert stale == []
    assert len(found) == len(entries) > 0
