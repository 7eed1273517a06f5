"""Mutation testing of the engine and the chip ledger: do the tests notice a wrong rule?

A small AST mutator, no third-party tool: each mutant changes ONE spot of one module
(a comparison shifted by one, ``+`` and ``-`` swapped, ``and`` and ``or`` swapped, a
``not`` or a unary minus dropped, an integer constant plus one, ``True`` and ``False``
swapped, ``+=`` and ``-=`` swapped) and the module's own unit and property tests run
against it. A mutant the tests fail on is *killed*; one they pass on *survives*: some
wrong behaviour no test notices.

How it stays fast (each mutant in well under a second, most of them):

* one coverage pass first records, for every test, the lines of the mutated modules it
  runs (``sys.settrace``, also on the store's worker thread); a mutant then runs only the
  tests that reach its line, fastest first, with ``pytest -x``. A mutant on a line no
  test reaches survives without running anything ("not reached"). The pass is cached
  in ``.mutate-cache/`` and redone when a module or a test file changes.
* the runner imports pytest, hypothesis and the like once, then forks a child for each
  mutant; the child serves the mutated module from memory (an import hook) and the
  tests import everything else fresh. A child that runs longer than ``--timeout``
  seconds is killed and counts as a killed mutant (the mutation made a loop endless).
* hypothesis runs with the ``mutants`` profile: no example database, derandomised.

Equivalent mutants (no behaviour change, so no test can kill them) are listed with the
reason in ``scripts/mutate_equivalent.md`` and left out of the rate. The script reads that
file's lines ``- `module` `code`: `old` -> `new` #N - reason``: the code of the changed
token's line (stripped, without its comment), never a line number, so moving lines
leaves an entry valid; ``#N`` only where the module has that change on that code more
than once (the Nth in reading order). An entry that matches no mutant (its code changed
or is gone) or, without ``#N``, several, hides nothing: the script warns about it.

    python scripts/mutate.py                       # every module, one after the other
    python scripts/mutate.py engine/pontoon/play.py bot/storage/ledger.py
    python scripts/mutate.py --list engine/pontoon/play.py   # the mutants, not run
    python scripts/mutate.py --survivors ...       # each survivor, as an entry to paste

Exit status 0 when every module reaches ``--target`` (default 90%) killed, 1 if not.
Tests that run the engine in a child process (``python -m engine``) do not see the
mutant, so they are not selected. Not part of ``pytest``: it takes minutes.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import io
import json
import os
import re
import signal
import sys
import threading
import time
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".mutate-cache"
EQUIVALENT_FILE = Path(__file__).resolve().parent / "mutate_equivalent.md"

LEDGER_TESTS = [
    "tests/bot/test_storage_ledger.py",
    "tests/bot/test_storage_ledger_boundaries.py",
    "tests/bot/test_storage_property.py",
]
MAX_EXAMPLES = 25  # hypothesis examples per property test for each mutant
MAX_TEST_SECONDS = 4.0  # tests slower than this (traced) are left out of mutant runs
ALL_ENGINE_TESTS = ["tests/engine", "tests/scenarios"]
# Blackjack's service and its table message: the fast tests of tests/bot that name it
# (a store on a temporary file, no bot process, no fake Discord)
BLACKJACK_BOT_TESTS = sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "tests/bot").glob("test_blackjack_*.py")
)

# Module -> the test paths that are its own tests (unit, property, replay; never e2e).
# The coverage pass narrows each mutant further to the tests that reach its line.
MODULES: dict[str, list[str]] = {
    "engine/cards.py": ALL_ENGINE_TESTS,
    "engine/cli_options.py": ALL_ENGINE_TESTS,
    "engine/errors.py": ALL_ENGINE_TESTS,
    "engine/records.py": ALL_ENGINE_TESTS,
    "engine/__main__.py": ALL_ENGINE_TESTS,
    "engine/game.py": ALL_ENGINE_TESTS,
    "engine/replay.py": ALL_ENGINE_TESTS,
    # every module of every game's engine folder, with that game's own tests: a new
    # game (or a new module) is mutated without an edit here
    **{
        f"engine/{game.name}/{module.name}": [
            f"tests/engine/{game.name}",
            f"tests/scenarios/{game.name}",
            "tests/engine/test_engine_cli.py",
        ]
        for game in sorted((ROOT / "engine").iterdir())
        if (game / "__init__.py").is_file()
        for module in sorted(game.glob("*.py"))
        if module.name != "__init__.py"
    },
    "bot/storage/ledger.py": LEDGER_TESTS,
    "bot/blackjack.py": BLACKJACK_BOT_TESTS,
    "cogs/blackjack/controls.py": BLACKJACK_BOT_TESTS,
    "cogs/blackjack/text.py": BLACKJACK_BOT_TESTS,
}


# ------------------------------------------------------------------ the mutations
@dataclass(frozen=True)
class Mutant:
    module: str
    index: int
    line: int  # the node's lines: what the coverage pass selects the tests by
    end_line: int
    old: str
    new: str
    # Where the changed token is (its line may be later than ``line`` in an expression
    # over several lines), the code on that line (stripped, without a comment), and
    # which of the module's mutants with the same code and change this one is (1-based,
    # in reading order) out of how many: the key of an equivalent entry.
    at: int = 0
    col: int = 0
    text: str = ""
    occurrence: int = 1
    occurrences: int = 1

    def key(self) -> tuple[str, str, str, str]:
        return (self.module, self.text, self.old, self.new)

    def describe(self) -> str:
        return f"{self.module}:{self.at or self.line}: `{self.old}` -> `{self.new}`"

    def entry(self) -> str:
        """The mutant as a line of ``mutate_equivalent.md`` (the reason left to add)."""
        nth = f" #{self.occurrence}" if self.occurrences > 1 else ""
        return f"- `{self.module}` {_code_span(self.text)}: `{self.old}` -> `{self.new}`{nth}"


CMP_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BIN_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
SYMBOL: dict[type[Any], str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Div: "/",
    ast.Mod: "%",
    ast.And: "and",
    ast.Or: "or",
}


class Mutator(ast.NodeTransformer):
    """Walks a module in a fixed order; counts the mutation sites and, when ``target``
    is a site's number, applies that one mutation. Type annotations, docstrings,
    ``__all__`` and ``TYPE_CHECKING`` blocks are not mutated."""

    def __init__(self, target: int = -1) -> None:
        self.target = target
        self.count = 0
        # (line, end line, old, new, the changed token's place or where to look for it)
        self.sites: list[tuple[int, int, str, str, tuple[int, int], bool]] = []

    def _site(self, node: ast.AST, old: str, new: str, after: ast.AST | None = None) -> bool:
        """One mutation site; ``after`` is the operand the changed operator follows
        (none: the token is where the node starts)."""
        n = self.count
        self.count += 1
        line = getattr(node, "lineno", 0)
        if after is None:
            anchor = (line, getattr(node, "col_offset", 0))
        else:
            anchor = (after.end_lineno or line, after.end_col_offset or 0)
        end_line = getattr(node, "end_lineno", line) or line
        self.sites.append((line, end_line, old, new, anchor, after is not None))
        return n == self.target

    # -- things never mutated
    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.args = self.visit(node.args)
        node.body = [self.visit(s) for s in node.body]
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.body = [self.visit(s) for s in node.body]
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return node
        return self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return node
        return self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node
        return self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return node  # message text: not a rule

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        # Generic types in casts and the like (``cast(list[int], x)``) are not rules.
        if isinstance(node.value, ast.Name) and node.value.id in {
            "list",
            "dict",
            "tuple",
            "set",
            "frozenset",
            "type",
            "Literal",
        }:
            return node
        return self.generic_visit(node)

    # -- the mutations
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for i, op in enumerate(node.ops):
            swap = CMP_SWAP.get(type(op))
            before = node.left if i == 0 else node.comparators[i - 1]
            if swap is not None and self._site(node, SYMBOL[type(op)], SYMBOL[swap], before):
                node.ops[i] = swap()
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        swap = BIN_SWAP.get(type(node.op))
        if swap is not None and self._site(node, SYMBOL[type(node.op)], SYMBOL[swap], node.left):
            node.op = swap()
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        swap = BIN_SWAP.get(type(node.op))
        if swap is not None:
            old, new = SYMBOL[type(node.op)] + "=", SYMBOL[swap] + "="
            if self._site(node, old, new, node.target):
                node.op = swap()
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        swap: type[ast.boolop] = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._site(node, SYMBOL[type(node.op)], SYMBOL[swap], node.values[0]):
            node.op = swap()
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and self._site(node, "not x", "x"):
            return node.operand
        negation = isinstance(node.op, ast.USub) and not isinstance(node.operand, ast.Constant)
        if negation and self._site(node, "-x", "x"):
            return node.operand
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        v = node.value
        if isinstance(v, bool):
            if self._site(node, repr(v), repr(not v)):
                return ast.copy_location(ast.Constant(not v), node)
        elif isinstance(v, int) and self._site(node, repr(v), repr(v + 1)):
            return ast.copy_location(ast.Constant(v + 1), node)
        return node


def mutants_of(module: str, source: str | None = None) -> list[Mutant]:
    """The module's mutants, in the order ``Mutator`` numbers them; ``source`` stands
    in for the file's text."""
    if source is None:
        source = (ROOT / module).read_text()
    m = Mutator()
    m.visit(ast.parse(source, module))
    tokens, code = _tokens(source)
    found = []
    for i, (line, end_line, old, new, anchor, search) in enumerate(m.sites):
        at, col = _token_at(tokens, anchor, old) if search else anchor
        found.append(Mutant(module, i, line, end_line, old, new, at, col, code[at - 1]))
    # Number the mutants that share a key in reading order (the changed token's place).
    groups: dict[tuple[str, str, str, str], list[Mutant]] = {}
    for mu in sorted(found, key=lambda mu: (mu.at, mu.col, mu.index)):
        groups.setdefault(mu.key(), []).append(mu)
    numbered = {
        mu.index: replace(mu, occurrence=n, occurrences=len(same))
        for same in groups.values()
        for n, mu in enumerate(same, 1)
    }
    return [numbered[i] for i in range(len(found))]


def _tokens(source: str) -> tuple[list[tokenize.TokenInfo], list[str]]:
    """The module's tokens, and each line's code: stripped, its comment left out."""
    lines = source.splitlines()
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    code = list(lines)
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            code[row - 1] = code[row - 1][:col]
    return tokens, [c.strip() for c in code]


def _token_at(
    tokens: list[tokenize.TokenInfo], anchor: tuple[int, int], old: str
) -> tuple[int, int]:
    """Where a changed operator is: the first token at or after ``anchor`` (the end of
    the operand before it) spelled like ``old``'s first word (``not in`` -> ``not``)."""
    word = old.split()[0]
    for tok in tokens:
        if tok.start >= anchor and tok.string == word:
            return tok.start
    return anchor  # not expected: the node's own place


def mutated_code(module: str, index: int) -> CodeType:
    path = ROOT / module
    tree = ast.parse(path.read_text(), str(path))
    m = Mutator(index)
    tree = m.visit(tree)
    ast.fix_missing_locations(tree)
    return compile(tree, str(path), "exec", dont_inherit=True)


def module_name(module: str) -> str:
    name = module.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


# ------------------------------------------------------------------ equivalents
# An entry: - `module` `code on the line`: `old` -> `new` #2 - why it is equivalent
# The code is the changed token's line, stripped, without its comment (in a longer run of
# backticks when it holds one); `#N` only where the module has that change on that code
# more than once (N counts them in reading order).
EQUIV_LINE = re.compile(
    r"^- `(?P<mod>[^`]+)` (?P<tick>`+)(?P<text>.+?)(?P=tick): "
    r"`(?P<old>[^`]+)` -> `(?P<new>[^`]+)`(?: #(?P<nth>\d+))?(?=\s|$)"
)
OLD_EQUIV_LINE = re.compile(r"^- `[^`]+` line \d+: ")


@dataclass(frozen=True)
class Equivalent:
    module: str
    text: str
    old: str
    new: str
    occurrence: int | None  # None: the only mutant with this key
    where: int = 0  # its line in the file, for the warnings

    def key(self) -> tuple[str, str, str, str]:
        return (self.module, self.text, self.old, self.new)

    def entry(self) -> str:
        nth = "" if self.occurrence is None else f" #{self.occurrence}"
        return f"- `{self.module}` {_code_span(self.text)}: `{self.old}` -> `{self.new}`{nth}"


def _code_span(text: str) -> str:
    """``text`` as Markdown inline code: in a run of backticks longer than any it holds."""
    ticks = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if len(ticks) > 1 else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def parse_equivalent(raw: str, where: int = 0) -> Equivalent | None:
    m = EQUIV_LINE.match(raw.strip())
    if m is None:
        return None
    text = m["text"]
    if len(m["tick"]) > 1 and text.startswith(" ") and text.endswith(" "):
        text = text[1:-1]
    nth = int(m["nth"]) if m["nth"] else None
    return Equivalent(m["mod"], text, m["old"], m["new"], nth, where)


def load_equivalents(path: Path | None = None) -> tuple[list[Equivalent], list[str]]:
    """The entries (of ``mutate_equivalent.md`` unless ``path``), and a warning for each
    line in the old form (keyed by line number), which is no longer read."""
    path = path or EQUIVALENT_FILE
    if not path.exists():
        return [], []
    entries: list[Equivalent] = []
    warnings: list[str] = []
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        entry = parse_equivalent(raw, n)
        if entry is not None:
            entries.append(entry)
        elif OLD_EQUIV_LINE.match(raw.strip()):
            warnings.append(f"{path.name}:{n}: keyed by line number, not read: {raw.strip()}")
    return entries, warnings


def match_equivalents(
    mutants: Sequence[Mutant], entries: Sequence[Equivalent]
) -> tuple[set[tuple[str, int]], list[str]]:
    """The mutants (module, index) the entries name, and a warning for each entry that
    names none (its code or change is gone: stale; or, without ``#N``, several mutants
    fit) or one another entry names too. Only entries of the given mutants' modules are
    looked at. A warned entry leaves nothing out of the rate."""
    by_key: dict[tuple[str, str, str, str], list[Mutant]] = {}
    for mu in sorted(mutants, key=lambda mu: (mu.module, mu.occurrence)):
        by_key.setdefault(mu.key(), []).append(mu)
    modules = {mu.module for mu in mutants}
    matched: dict[tuple[str, int], Equivalent] = {}
    warnings: list[str] = []
    for e in entries:
        if e.module not in modules:
            continue
        same = by_key.get(e.key(), [])
        where = f"{EQUIVALENT_FILE.name}:{e.where}: "
        if e.occurrence is None and len(same) > 1:
            warnings.append(
                f"{where}matches {len(same)} mutants, name one (#1 to #{len(same)}): {e.entry()}"
            )
            continue
        n = e.occurrence or 1
        if not 1 <= n <= len(same):
            warnings.append(f"{where}stale, matches no mutant: {e.entry()}")
            continue
        mu = same[n - 1]
        first = matched.setdefault((mu.module, mu.index), e)
        if first is not e:
            warnings.append(f"{where}names the same mutant as line {first.where}: {e.entry()}")
    return set(matched), warnings


# ------------------------------------------------------------------ coverage pass
class _Recorder:
    """A pytest plugin: the target modules' lines each test runs, and its duration."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files  # absolute path -> module (relative path)
        self.current = "<import>"
        self.lines: dict[str, dict[str, set[int]]] = {}
        self.durations: dict[str, float] = {}
        self.outcomes: dict[str, str] = {}
        self._start = 0.0

    def _local(self, frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            mod = self.files[frame.f_code.co_filename]
            self.lines.setdefault(self.current, {}).setdefault(mod, set()).add(frame.f_lineno)
        return self._local

    def tracer(self, frame: FrameType, event: str, arg: object) -> Any:
        if event == "call" and frame.f_code.co_filename in self.files:
            self._local(frame, "line", None)
            return self._local
        return None

    def pytest_runtest_setup(self, item: Any) -> None:
        self.current = item.nodeid
        self._start = time.perf_counter()

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call":
            self.durations[report.nodeid] = time.perf_counter() - self._start
            self.outcomes[report.nodeid] = report.outcome

    def pytest_runtest_teardown(self, item: Any) -> None:
        pass


def _fingerprint(modules: Sequence[str]) -> str:
    h = hashlib.sha256()
    paths = sorted({p for m in modules for p in MODULES[m] if (ROOT / p).exists()})
    files = [ROOT / m for m in sorted(modules)]
    for p in paths:
        base = ROOT / p
        files += sorted(base.rglob("*")) if base.is_dir() else [base]
    files += [ROOT / "tests/conftest.py"]
    for f in files:
        if f.is_file() and "__pycache__" not in f.parts:
            h.update(str(f.relative_to(ROOT)).encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def coverage_map(modules: Sequence[str], test_paths: Sequence[str]) -> dict[str, Any]:
    """Run the tests once (in a child) recording which tests reach which lines."""
    key = _fingerprint(modules)
    CACHE.mkdir(exist_ok=True)
    cached = CACHE / f"coverage-{key}.json"
    if cached.exists():
        result: dict[str, Any] = json.loads(cached.read_text())
        return result
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        _quiet()
        import pytest

        rec = _Recorder({str(ROOT / m): m for m in modules})
        sys.settrace(rec.tracer)
        threading.settrace(rec.tracer)
        pytest.main([*_pytest_args(), *test_paths], plugins=[rec])
        sys.settrace(None)
        data = {
            "lines": {t: {m: sorted(ls) for m, ls in per.items()} for t, per in rec.lines.items()},
            "durations": rec.durations,
            "outcomes": rec.outcomes,
        }
        with os.fdopen(w, "w") as f:
            json.dump(data, f)
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        raw = f.read()
    os.waitpid(pid, 0)
    result = json.loads(raw)
    failing = [t for t, o in result["outcomes"].items() if o != "passed"]
    for t in failing:  # a test that fails unmutated would "kill" every mutant
        print(f"mutate: left out, fails (or skips) unmutated: {t}", file=sys.stderr)
        result["lines"].pop(t, None)
        result["durations"].pop(t, None)
    cached.write_text(json.dumps(result))
    return result


# ------------------------------------------------------------------ running a mutant
def _quiet() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def _pytest_args() -> list[str]:
    return [
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "--rootdir",
        str(ROOT),
        "-W",
        "ignore",
    ]


class _MutantFinder(importlib.abc.MetaPathFinder):
    def __init__(self, name: str, path: str, code: CodeType) -> None:
        self.name, self.path, self.code = name, path, code

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        code = self.code

        class Loader(importlib.machinery.SourceFileLoader):
            def get_code(self, fullname: str) -> CodeType:
                return code

        loader = Loader(fullname, self.path)
        return importlib.util.spec_from_file_location(fullname, self.path, loader=loader)


def run_mutant(mutant: Mutant, tests: Sequence[str], timeout: float) -> str:
    """'killed', 'survived' or 'timeout' (counted as killed)."""
    code = mutated_code(mutant.module, mutant.index)
    pid = os.fork()
    if pid == 0:  # child
        try:
            _quiet()
            os.setpgid(0, 0)
            sys.meta_path.insert(
                0, _MutantFinder(module_name(mutant.module), str(ROOT / mutant.module), code)
            )
            import pytest

            status = pytest.main([*_pytest_args(), *tests])
            os._exit(int(status))
        except BaseException:
            os._exit(99)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code_ = os.waitstatus_to_exitcode(status)
            return "survived" if code_ == 0 else "killed"
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.01)


def tests_for(mutant: Mutant, cov: dict[str, Any]) -> list[str]:
    lines = set(range(mutant.line, mutant.end_line + 1))
    hit = [
        t
        for t, per in cov["lines"].items()
        if t != "<import>" and lines & set(per.get(mutant.module, []))
    ]
    if not hit and lines & set(cov["lines"].get("<import>", {}).get(mutant.module, [])):
        # A line run at import (a constant, a default): every test that runs the module
        # may see it.
        hit = [t for t, per in cov["lines"].items() if t != "<import>" and per.get(mutant.module)]
    durations = cov["durations"]
    own = MODULES[mutant.module]
    hit = [
        t
        for t in hit
        if durations.get(t, 0.0) <= MAX_TEST_SECONDS and any(t.startswith(p) for p in own)
    ]
    return sorted(hit, key=lambda t: durations.get(t, 1.0))


# ------------------------------------------------------------------ main
def _preload() -> None:
    """Import the heavy third-party modules once, before forking (never the project)."""
    import asyncio  # noqa: F401
    import sqlite3  # noqa: F401

    import hypothesis
    import pydantic  # noqa: F401
    import pytest  # noqa: F401

    hypothesis.settings.register_profile(
        "mutants",
        database=None,
        derandomize=True,
        deadline=None,
        print_blob=False,
        max_examples=MAX_EXAMPLES,
    )
    hypothesis.settings.load_profile("mutants")
    # A test's own @settings(max_examples=...) would override the profile: cap it too.
    original = hypothesis.settings.__init__

    def capped(self: Any, parent: Any = None, **kwargs: Any) -> None:
        if "max_examples" in kwargs:
            kwargs["max_examples"] = min(kwargs["max_examples"], MAX_EXAMPLES)
        original(self, parent, **kwargs)

    hypothesis.settings.__init__ = capped  # type: ignore[method-assign]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("modules", nargs="*", help="paths relative to the project (default: all)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per mutant")
    ap.add_argument("--target", type=float, default=90.0, help="percent killed to pass")
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    ap.add_argument(
        "--survivors", action="store_true", help="print every survivor as an equivalent entry"
    )
    ap.add_argument("--json", type=Path, help="write the results here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each mutant's fate")
    args = ap.parse_args(argv)
    os.chdir(ROOT)
    modules = args.modules or list(MODULES)
    unknown = [m for m in modules if m not in MODULES]
    if unknown:
        ap.error(f"not a mutated module: {unknown}; known: {sorted(MODULES)}")
    entries, warnings = load_equivalents()
    mutants = {m: mutants_of(m) for m in modules}
    equivalents, stale = match_equivalents([mu for ms in mutants.values() for mu in ms], entries)
    for w in [*warnings, *stale]:
        print(f"mutate: WARNING: {w}", file=sys.stderr, flush=True)
    if args.list:
        for m in modules:
            for mu in mutants[m]:
                flag = "  (equivalent)" if (mu.module, mu.index) in equivalents else ""
                print(f"{mu.module}:{mu.at}  {mu.entry()}{flag}")
        return 0
    sys.path.insert(0, str(ROOT))
    _preload()
    paths = sorted({p for m in modules for p in MODULES[m] if (ROOT / p).exists()})
    cov = coverage_map(modules, paths)
    all_ok = True
    report: dict[str, Any] = {}
    for module in modules:
        t0 = time.monotonic()
        killed = survived = equivalent = timeouts = 0
        survivors: list[str] = []
        for mu in mutants[module]:
            if (mu.module, mu.index) in equivalents:
                equivalent += 1
                continue
            tests = tests_for(mu, cov)
            # Counted killed on time-out (an endless loop), so the time-out must leave the
            # selected tests ample time.
            expected = sum(cov["durations"].get(t, 1.0) for t in tests)
            # (the durations were measured under tracing, about 2-3 times slower)
            timeout = max(args.timeout, 1.5 * expected + 10)
            outcome = run_mutant(mu, tests, timeout) if tests else "survived"
            if args.verbose:
                print(f"  {outcome:8} {mu.describe()}  ({len(tests)} tests)", flush=True)
            if outcome == "survived":
                survived += 1
                note = "" if tests else ", no test reaches it"
                survivors.append(f"line {mu.at}{note}: {mu.entry()}")
            else:
                killed += 1
                timeouts += outcome == "timeout"
        total = killed + survived
        rate = 100.0 * killed / total if total else 100.0
        ok = rate >= args.target
        all_ok &= ok
        print(
            f"{module:38} {killed:4}/{total:<4} killed {rate:5.1f}%"
            f"  ({equivalent} equivalent, {timeouts} timed out, {time.monotonic() - t0:5.1f} s)"
            f"{'' if ok else '  BELOW TARGET'}",
            flush=True,
        )
        if args.survivors:  # each one ready to paste into mutate_equivalent.md
            for s in survivors:
                print("    survived", s, flush=True)
        report[module] = {
            "killed": killed,
            "total": total,
            "equivalent": equivalent,
            "rate": rate,
            "survivors": survivors,
        }
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
