"""What a contributor must know from the project's tooling: pyproject.toml settings, the
commands its `scripts/` run, and its pull-request checklist. Stdlib only.

pyproject.toml (and the same settings in setup.cfg, tox.ini, .flake8, pytest.ini and
mypy.ini, where older projects keep them): the Python floor (`requires-python`), the coverage
floor (`fail_under`), pytest turning warnings into errors (`filterwarnings = error`) and its
strict flags, and the linter, formatter and type checker configured there with their
strictness (ruff, black, isort, flake8 line length, not one flake8 ignores as E501; mypy or
pyright strict). Each setting is one proposal naming the
project, the file and the value, with the line it is set on. Nothing else in the file is read.

`scripts/`: each script (a regular text file with a shebang or a `.sh` / `.py` name, at most
64 KiB) is one proposal listing what it runs in order (pytest, coverage, ruff, mypy, …,
another project script, or a program the tool list does not know once a tool is among them),
with `${PREFIX}` and `venv/bin/` left out and `export`ed variables filled in; a coverage floor
given on the command line (`--fail-under=N`) is its own proposal. A script that runs no
development tool is not proposed.

pyproject.toml also gives what ruff's flake8-tidy-imports bans, with the project's message
(`banned-api`), and the modules it allows only inside functions; pytest's settings are read from
`[tool.pytest.ini_options]` or pytest 9's own `[tool.pytest]`.

The `Makefile`: what each target a contributor runs before a pull request (test, lint, format,
typecheck …) runs, in order, its variables filled in; a target that runs only a tool by its bare
name says nothing.

The pull-request template (`.github/pull_request_template.md`, any case, or
`docs/pull_request_template.md`): each checklist item, one proposal each, except the generic
ones any project has (read the guide / the code of conduct, searched for duplicates).
"""

from __future__ import annotations

import configparser
import re
import shlex
import tomllib
from pathlib import Path

from kenning.extract.seed.documents import LEANS
from kenning.extract.seed.model import Proposal, lines_label, plain, regular_dir, regular_file

MAX_SCRIPT_BYTES = 64 * 1024
MAX_SCRIPTS = 40
PR_TEMPLATES = (".github/pull_request_template.md", ".github/PULL_REQUEST_TEMPLATE.md",
                "docs/pull_request_template.md", "pull_request_template.md",
                ".github/PULL_REQUEST_TEMPLATE/pull_request_template.md")
TOOLS = ("pytest", "coverage", "ruff", "mypy", "pyright", "black", "isort", "flake8",
         "pylint", "tox", "nox", "mkdocs", "sphinx-build", "pre-commit", "twine", "codespell",
         "bandit", "interrogate", "pyupgrade", "autoflake", "hatch", "uv", "pip", "build",
         "towncrier", "check-manifest", "pydocstyle", "doc8", "prettier", "eslint", "cargo",
         "npm", "make")
_CHECK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]?\]\s+(?P<item>.+?)\s*$")
GENERIC = re.compile(r"\b(?:code of conduct|contribut\w* (?:guide|guidelines|\.md)|read (?:the|"
                      r"and understood)|searched|duplicate|(?:agree|license) (?:to|under)|"
                      r"signed|CLA\b|acknowledge|issue (?:number|link)|fixes #|closes #|"
                      r"(?:descriptive|meaningful|clear|good) (?:pull request|PR|commit|title)|"
                      # "Review your changes for any backwards incompatibilities …"
                      r"review (?:your|the) (?:own )?(?:changes|code|diff|patch))",
                      re.I)
# "A short code fix", "An update to the docs": what kind of change the pull request is (one
# box of a choice), not a rule.
_KIND_OF_CHANGE = re.compile(r"^An?\s")
# "Updated documentation.", "There's tests for all new and changed code.": any project's.
ROUTINE = re.compile(r"\b(?:docs?|documentation|tests?|tested|changelog|changes)\b", re.I)


def pyproject_file(root: Path) -> list[Path]:
    path = root / "pyproject.toml"
    return [path] if regular_file(path) else []


def pr_template_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for rel in PR_TEMPLATES:
        path = root / rel
        if regular_file(path) and not any(p.samefile(path) for p in out):
            out.append(path)
    return out


def script_files(root: Path) -> list[Path]:
    folder = root / "scripts"
    if not regular_dir(folder):
        return []
    out = [p for p in sorted(folder.iterdir()) if regular_file(p)
           and p.name.lower() not in ("readme.md", "readme", "readme.rst")
           and (p.suffix in ("", ".sh", ".py")) and p.stat().st_size <= MAX_SCRIPT_BYTES]
    return out[:MAX_SCRIPTS]


# ---- pyproject.toml -------------------------------------------------------------------------

def _key_line(lines: list[str], table: str, key: str) -> int | None:
    """The line `key` is set on inside `[table]` (1-based), None when not found."""
    inside = False
    head = re.compile(rf"^\s*\[\s*{re.escape(table)}\s*\]\s*(?:#.*)?$")
    for n, line in enumerate(lines, 1):
        if re.match(r"^\s*\[", line):
            inside = bool(head.match(line))
            continue
        if inside and re.match(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*(?:[=:]|\.\w)", line):
            return n  # `key = …`, or a dotted key under it: `"rich".msg = …`
    return None


def _table(data: dict, dotted: str) -> dict:
    here: object = data
    for part in dotted.split("."):
        here = here.get(part) if isinstance(here, dict) else None
    return here if isinstance(here, dict) else {}


def _setting_adder(text: str, rel: str, name: str, family: str, out: list[Proposal]):
    """`add(table, key, sentence, rule[, kind])`: one proposal into `out` for a setting of the
    file `rel` (its `text`), cited by the line `key` is set on in `[table]`; nothing when the
    key's line is not found."""
    lines = text.splitlines()

    def add(table: str, key: str, sentence: str, rule: str, kind: str = "codebase") -> None:
        n = _key_line(lines, table, key)
        if n is None:
            return
        out.append(Proposal(source="docs", kind=kind, text=f"{name} ({rel}): {sentence}",
                            provenance=lines_label(rel, n, n), rule=f"{family}-{rule}"))
    return add


def pyproject_proposals(text: str, rel: str, name: str) -> list[Proposal]:
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    out: list[Proposal] = []
    add = _setting_adder(text, rel, name, "pyproject", out)
    floor = _table(data, "project").get("requires-python")
    if isinstance(floor, str) and floor.strip():
        add("project", "requires-python",
            f"Supports Python {floor.strip()} (`requires-python = \"{floor.strip()}\"`).",
            "requires-python")
    poetry = _table(data, "tool.poetry.dependencies").get("python")
    if not (isinstance(floor, str) and floor.strip()) and isinstance(poetry, str) \
            and re.match(r"\s*(?:>=?|\^|~=?)\s*\d", poetry):  # Poetry's floor: `python = ">=3.8"`
        add("tool.poetry.dependencies", "python", f"Supports Python {poetry.strip()} (`python = "
            f"\"{poetry.strip()}\"` in [tool.poetry.dependencies]).", "requires-python")
    _pytest(data, add)
    for table in ("tool.coverage.report", "tool.coverage"):
        under = _table(data, table).get("fail_under")
        if isinstance(under, (int, float)) and not isinstance(under, bool) and under > 0:
            add(table, "fail_under", f"Coverage below {under:g}% fails (`fail_under = "
                f"{under:g}` in [{table}]).", "fail-under", "interaction")
            break
    _linters(data, add)
    _banned(data, add)
    return out


def _pytest(data: dict, add) -> None:
    """pytest's table: `[tool.pytest.ini_options]`, or since pytest 9 `[tool.pytest]` itself
    (native TOML)."""
    legacy = _table(data, "tool.pytest.ini_options")
    native = {k: v for k, v in _table(data, "tool.pytest").items() if k != "ini_options"}
    for table, ini in (("tool.pytest.ini_options", legacy), ("tool.pytest", native)):
        if ini:
            _pytest_settings(ini, table, add)


def _true(value: object) -> bool:
    return value is True or str(value).strip().lower() == "true"


def _pytest_settings(ini: dict, table: str, add) -> None:
    """pytest's settings that fail a run (`ini`: its table in pyproject.toml, or its INI
    section, whose values are strings)."""
    warnings = ini.get("filterwarnings")
    if isinstance(warnings, str):
        warnings = warnings.splitlines() or [warnings]
    if isinstance(warnings, list) and any(isinstance(w, str) and w.strip() == "error"
                                          for w in warnings):
        # The filters after "error" take some warnings back ("ignore::UserWarning",
        # "default::DeprecationWarning"): then not every warning fails a test.
        after = [w.strip() for w in warnings[[str(w).strip() for w in warnings].index("error")
                                             + 1:] if isinstance(w, str) and w.strip()]
        # a filter naming a module too ("ignore::DeprecationWarning:xdist") takes back only
        # that module's warnings of the kind
        kinds = sorted({m.group(1) for w in after if (m := re.match(
            r"(?:ignore|default|always|once|module)::([\w.]+):?\s*$", w))})
        if not after:
            said, note = "every warning into an error", ""
        elif kinds and len(kinds) == len(after):
            said, note = f"warnings other than {', '.join(f'`{k}`' for k in kinds)} into errors", ""
        else:
            said = "warnings into errors"
            note = (f"; the {len(after)} filters after it let some through" if len(after) > 1
                    else "; the filter after it lets some through")
        add(table, "filterwarnings", f"pytest turns {said} "
            f"(`filterwarnings = error` in [{table}]{note}).", "filterwarnings-error",
            "interaction")
    if _true(ini.get("strict", "")):  # pytest 9: every strictness option at once
        add(table, "strict", "pytest runs in strict mode (`strict = true` in "
            f"[{table}]): an unknown config key, an unregistered marker, an unexpectedly "
            "passing xfail test and duplicate parametrize ids fail the run.", "pytest-strict",
            "interaction")
        return
    addopts = ini.get("addopts")
    opts = " ".join(addopts) if isinstance(addopts, list) else addopts
    said = opts.split() if isinstance(opts, str) else []
    strict = [o for o in ("--strict-markers", "--strict-config") if o in said]
    if strict:
        add(table, "addopts", f"pytest runs with {' and '.join(f'`{o}`' for o in strict)}"
            f" (addopts in [{table}]): an unregistered marker"
            f"{' or an unknown config key' if len(strict) == 2 else ''} fails the run."
            if "--strict-markers" in strict else
            f"pytest runs with `--strict-config` (addopts in [{table}]): "
            "an unknown config key fails the run.", "pytest-strict", "interaction")
    # pytest 9 names the same switches as settings (`strict_markers = true`)
    for key, flag, what in (("strict_markers", "--strict-markers", "an unregistered marker"),
                            ("strict_config", "--strict-config", "an unknown config key")):
        if flag not in strict and _true(ini.get(key, "")):
            add(table, key, f"pytest fails the run on {what} (`{key} = true` in [{table}]).",
                "pytest-strict", "interaction")
    for key in ("xfail_strict", "strict_xfail"):  # pytest 9's name for it: strict_xfail
        if _true(ini.get(key, "")):
            add(table, key, "pytest treats an unexpectedly passing xfail test as a "
                f"failure (`{key} = true`).", "xfail-strict", "interaction")
            break


def _banned(data: dict, add) -> None:
    """What ruff's flake8-tidy-imports bans, each with the message the project wrote for it
    (`"rich".msg = "Use 'typer.rich_utils' instead …"`), and the modules it allows only inside
    functions (`banned-module-level-imports`): rules the linter enforces, in the project's
    words."""
    for table in ("tool.ruff.lint.flake8-tidy-imports", "tool.ruff.flake8-tidy-imports"):
        tidy = _table(data, table)
        for api, entry in (tidy.get("banned-api") or {}).items():
            msg = entry.get("msg") if isinstance(entry, dict) else None
            if not isinstance(msg, str) or len(msg.split()) < 3:
                continue
            msg = " ".join(msg.split())
            add(f"{table}.banned-api", api, f"Code must not use `{api}` (ruff's banned-api in "
                f"[{table}.banned-api]): {msg if msg[-1] in '.!' else msg + '.'}", "banned-api",
                "interaction")
        lazy = tidy.get("banned-module-level-imports")
        if isinstance(lazy, list) and lazy and all(isinstance(m, str) for m in lazy):
            names = ", ".join(f"`{m}`" for m in lazy)
            add(table, "banned-module-level-imports", f"{names} may be imported only inside "
                f"functions, never at module level (ruff's `banned-module-level-imports` in "
                f"[{table}]).", "banned-module-level", "interaction")


def _linters(data: dict, add) -> None:
    ruff = _table(data, "tool.ruff")
    if ruff:
        length = ruff.get("line-length")
        key = "line-length" if isinstance(length, int) else next(iter(ruff), "")
        if key and not isinstance(ruff.get(key), dict):
            add("tool.ruff", key, "Lints with ruff" + (f", line length {length}"
                if isinstance(length, int) else "") + " ([tool.ruff]).", "ruff")
    for tool in ("black", "isort", "flake8"):
        length = _table(data, f"tool.{tool}").get("line-length",
                                                  _table(data, f"tool.{tool}").get(
                                                      "line_length"))
        if isinstance(length, int):
            key = "line-length" if "line-length" in _table(data, f"tool.{tool}") \
                else "line_length"
            verb = "Formats" if tool == "black" else ("Sorts imports" if tool == "isort"
                                                      else "Lints")
            add(f"tool.{tool}", key, f"{verb} with {tool}, line length {length} "
                f"([tool.{tool}]).", tool)
    if _table(data, "tool.mypy").get("strict") is True:
        add("tool.mypy", "strict", "Configures mypy in strict mode (`strict = true` in "
            "[tool.mypy]).", "mypy-strict")
    mode = _table(data, "tool.pyright").get("typeCheckingMode")
    if mode in ("strict", "standard", "basic"):
        add("tool.pyright", "typeCheckingMode", f"Configures pyright in {mode} mode "
            f"(`typeCheckingMode = \"{mode}\"` in [tool.pyright]).", "pyright")


# ---- setup.cfg, tox.ini, .flake8, pytest.ini, mypy.ini ---------------------------------------

INI_FILES = ("setup.cfg", "tox.ini", ".flake8", "pytest.ini", "mypy.ini")
# The section each tool reads, by file: pytest's is `[tool:pytest]` in setup.cfg only.
_PYTEST_SECTION = {"setup.cfg": "tool:pytest", "tox.ini": "pytest", "pytest.ini": "pytest"}


def ini_files(root: Path) -> list[Path]:
    return [root / name for name in INI_FILES if regular_file(root / name)]


def ini_proposals(text: str, rel: str, name: str) -> list[Proposal]:
    """The same settings `pyproject_proposals` reads, where older projects keep them: flake8's
    and isort's line length, pytest's settings that fail a run, mypy's strict mode."""
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    out: list[Proposal] = []
    add = _setting_adder(text, rel, name, "ini", out)
    def section(title: str) -> dict:
        return dict(parser.items(title)) if parser.has_section(title) else {}

    for tool, verb in (("flake8", "Lints"), ("isort", "Sorts imports")):
        found = section(tool)
        key = next((k for k in ("max-line-length", "max_line_length", "line_length",
                                "line-length") if k in found), None)
        # flake8 ignoring E501 ("line too long") enforces no length, whatever it sets
        ignored = " ".join(found.get(k, "") for k in ("ignore", "extend-ignore", "extend_ignore"))
        if key and found[key].strip().isdigit() and "E501" not in ignored:
            add(tool, key, f"{verb} with {tool}, line length {found[key].strip()} "
                f"(`{key}` in [{tool}]).", tool)
    if pytest := _PYTEST_SECTION.get(rel):
        _pytest_settings(section(pytest), pytest, add)
    if section("mypy").get("strict", "").strip().lower() == "true":
        add("mypy", "strict", "Configures mypy in strict mode (`strict = True` in [mypy]).",
            "mypy-strict")
    return out


# ---- scripts/ -------------------------------------------------------------------------------

def without_env(words: list[str]) -> list[str]:
    """A command line's words from its program on: the `VAR=value` words before it set the
    environment it runs in ("TOX_SKIP_ENV=perf tox -p all" runs tox)."""
    while words and re.match(r"^\w+=", words[0]):
        words = words[1:]
    return words


def _tool_of(words: list[str]) -> str | None:
    """The development tool a command line runs ("python -m pytest" → pytest), else None."""
    words = without_env(words)
    if not words:
        return None
    first = words[0].rsplit("/", 1)[-1] if "/" in words[0] and not \
        words[0].startswith("scripts/") else words[0]
    if first.startswith("scripts/"):
        return first
    if re.match(r"^python[\d.]*$", first) and len(words) > 2 and words[1] == "-m":
        return words[2] if words[2] in TOOLS else None
    if first == "uvx" and len(words) > 1 or words[:2] == ["pipx", "run"] and len(words) > 2:
        return words[1] if first == "uvx" else words[2]  # what these run is a tool by name
    return first if first in TOOLS else None


# A command line's first word naming a program, and the shell's own words and file plumbing,
# which run no development tool.
_PROGRAM = re.compile(r"^[a-z][\w.+-]*$")
_PLUMBING = frozenset("""set unset echo printf cd pushd popd export source if then else elif fi
    for do done while until case esac exit return trap shift test true false mkdir rm cp mv
    touch cat ls sleep wait read local declare eval function chmod chown ln find grep sed awk
    xargs tee basename dirname pwd realpath command type which hash shopt ulimit umask
    readonly let select break continue exec time git""".split())
_ECHO = re.compile(r"""^(?:echo|printf)\s+(?:-e\s+)?(?P<q>["'])(?P<msg>[^"'\\]+)(?P=q)"""
                   r"\s*(?:>&2|1>&2)?\s*;?$")


def script_proposals(text: str, rel: str, name: str) -> list[Proposal]:
    if not (text.startswith("#!") or rel.endswith((".sh", ".py"))) or rel.endswith(".py"):
        return []  # a Python script's calls are not command lines
    lines = text.splitlines()
    env: dict[str, str] = {}
    runs: list[tuple[int, str]] = []
    out: list[Proposal] = []
    passes_args = ""
    others = 0  # runs of programs `TOOLS` does not know
    unresolved = False  # a command whose program is a variable the file does not set
    said_last: tuple[int, str] | None = None  # the last `echo "…"`: its line and message
    for n, raw in enumerate(lines, 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if (echo := _ECHO.match(line)) is not None:
            said_last = (n, echo.group("msg").strip())
            continue
        if re.match(r"^exit\s+[1-9]\d*\s*;?$", line) and said_last and n - said_last[0] <= 2 \
                and "$" not in said_last[1] and len(said_last[1].split()) >= 4:
            out.append(Proposal(  # a check: the message it fails with says what it checks
                source="docs", kind="interaction",
                text=f"{name} ({rel}): Fails when: {said_last[1].rstrip('.!')}.",
                provenance=lines_label(rel, said_last[0], n), rule="script-check"))
            said_last = None
            continue
        m = re.match(r"^(?:export\s+)?(\w+)=([\"']?)([^\"'$`]*)\2\s*$", line)
        if m:
            env[m.group(1)] = m.group(3)
            continue
        for var, value in env.items():
            line = line.replace(f"${{{var}}}", value).replace(f"${var}", value)
        line = re.sub(r"^\$\{?PREFIX\}?|\bvenv/bin/|^\./", "", line.replace("${PREFIX}", ""))
        line = re.sub(r"^(?:exec|time)\s+", "", line)
        if re.search(r"[<>]\(", line):
            continue  # `diff <(sort a) <(sort b)`: shell plumbing no list of runs can say
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        if words[1:] in (["--version"], ["-V"], ["version"], ["--help"], ["-h"]):
            continue  # `pip --version`: a diagnostic printed, nothing run
        tool = _tool_of(words)
        if words and words[0].startswith("$"):
            unresolved = True  # `"$PYTHON" -m venv "$VENV"`: what runs is not in the file
        if tool is None:
            if words and _PROGRAM.match(words[0]) and words[0] not in _PLUMBING:
                # a program the tool list does not know (`ty check sqlmodel`): said too, so
                # the list of what the script runs is whole
                runs.append((n, " ".join(w for w in words if w and "$" not in w)[:120]))
                others += 1
            continue
        if any(w in ("$@", "$*") for w in words):
            passes_args = words[words.index("-m") + 1] if "-m" in words[:-1] else tool
        command = " ".join(w for w in words if w  # unresolved variables say nothing
                           and not re.match(r"^\$(?:[@*(]|\w+$|\{\w+\}$)", w))
        command = re.sub(r"^python[\d.]*\s+-m\s+", "", command)
        runs.append((n, command[:120]))
        under = re.search(r"--fail-under[= ](\d+(?:\.\d+)?)", command)
        if under:
            out.append(Proposal(
                source="docs", kind="interaction",
                text=f"{name} ({rel}): Coverage below {under.group(1)}% fails "
                     f"(`{command[:120]}`).", provenance=lines_label(rel, n, n),
                rule="script-fail-under"))
    if len(runs) == others or unresolved or (len(runs) == 1 and any(
            p.rule == "script-fail-under" for p in out)):
        return out  # "runs `coverage report --fail-under=100`" is what its floor says
    said = "; then ".join(f"`{c}`" for _, c in runs)
    extra = f" Arguments given to `{rel}` are passed on to {passes_args}." if passes_args \
        else ""
    out.insert(0, Proposal(source="docs", kind="interaction",
                           text=f"{name} ({rel}): `{rel}` runs {said}.{extra}",
                           provenance=lines_label(rel, runs[0][0], runs[-1][0]),
                           rule="script-runs"))
    return out


# ---- Makefile --------------------------------------------------------------------------------

MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
# The targets a contributor runs before a pull request; the rest (clean, release, docs
# servers, one-off helpers) are the maintainers' own business.
MAKE_TARGETS = frozenset({"test", "tests", "lint", "format", "fmt", "check", "typecheck",
                          "type-check", "types", "mypy"})
# What runs a tool inside the project's environment: the tool is the command.
_IN_ENV = re.compile(r"^(?:(?:poetry|uv|pdm|hatch|pipenv|rye)\s+run|uvx|pipx\s+run)\s+")
_MAKE_VAR = re.compile(r"^([A-Za-z_][\w.-]*)\s*(?::=|::=|\?=|=)\s*(.*?)\s*$")
_MAKE_TARGET = re.compile(r"^(?P<names>[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)*)\s*::?(?!=)"
                          r"(?P<deps>.*)$")


def makefile_files(root: Path) -> list[Path]:
    for name in MAKEFILES:
        if regular_file(root / name) and (root / name).stat().st_size <= MAX_SCRIPT_BYTES:
            return [root / name]
    return []


def makefile_proposals(text: str, rel: str, name: str) -> list[Proposal]:
    """`make test`, `make lint` …: what each such target runs, in order ("`make test` runs
    `pytest tests/ -n 16`"), with the file's simple variables filled in and what stays
    unresolved (`$(ARGS)`) left out. A target that runs no development tool, or only a tool
    by its bare name (`mypy`, `pytest -q`), says nothing."""
    variables: dict[str, str] = {}
    recipes: dict[tuple[str, ...], list[tuple[int, str]]] = {}
    current: tuple[str, ...] = ()
    for n, raw in enumerate(text.splitlines(), 1):
        if raw.startswith("\t"):
            if current:
                recipes.setdefault(current, []).append((n, raw.strip()))
            continue
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        current = ()
        if (var := _MAKE_VAR.match(line)) and not line.lstrip().startswith(("export ", ".")):
            variables[var.group(1)] = var.group(2)
        elif target := _MAKE_TARGET.match(line):
            current = tuple(t for t in target.group("names").split() if t in MAKE_TARGETS)
    out: list[Proposal] = []
    for targets, lines in recipes.items():
        # once a recipe runs a development tool, every program it runs is said, one the tool
        # list does not know too (`ufmt check`), as a script's are: the list is whole
        commands = [(n, c) for n, raw in lines if (c := _make_command(raw, variables))]
        if not any(known for _, (_, known) in commands):
            continue
        runs = [(n, command) for n, (command, _) in commands]
        if all(_bare(command) for _, command in runs):
            continue
        said = "; then ".join(f"`{c}`" for _, c in runs)
        also = "".join(f" (or `make {t}`)" for t in targets[1:])
        out.append(Proposal(source="docs", kind="interaction",
                            text=f"{name} ({rel}): `make {targets[0]}`{also} runs {said}.",
                            provenance=lines_label(rel, runs[0][0], runs[-1][0]),
                            rule="make-target"))
    return out


def _make_command(raw: str, variables: dict[str, str]) -> tuple[str, bool] | None:
    """A recipe line as the program it runs and whether that is a development tool `TOOLS`
    knows, or None (the shell's own words and file plumbing, git, an unresolved variable)."""
    command = raw
    for _ in range(3):  # a variable may name another
        command = re.sub(r"\$[({](\w+)[)}]",
                         lambda m: variables.get(m.group(1), m.group(0)), command)
    command = re.sub(r"\$[({][^)}]*[)}]", "", command.lstrip("@-+ ")).strip()
    command = _IN_ENV.sub("", command)
    # `python -m pre_commit` is the `pre-commit` command
    command = re.sub(r"^python[\d.]*\s+-m\s+(\S+)", lambda m: m.group(1).replace("_", "-"),
                     command)
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    program = without_env(words)
    if not program or "$" in command or not _PROGRAM.match(program[0]) \
            or program[0] in _PLUMBING:
        return None
    return " ".join(words)[:120], _tool_of(program) is not None


def _bare(command: str) -> bool:
    """`mypy`, `pytest -q`: the tool by its name, nothing a reader could not guess."""
    rest = command.split()[1:]
    return len(rest) <= 1 and all(w.startswith("-") for w in rest)


# ---- pull-request template ------------------------------------------------------------------

def pr_template_proposals(text: str, rel: str, name: str,
                          what: str = "pull-request checklist") -> list[Proposal]:
    """A checklist's items, each one proposal labelled `what` (a pull-request template's, or
    a contributing guide's; a release guide's checklist is the release's)."""
    out: list[Proposal] = []
    text = re.sub(r"<!--[\s\S]*?-->", lambda m: "\n" * m.group(0).count("\n"), text)
    lines = text.splitlines()
    # A sub-item is indented further than its list's first item (" - [ ] Update …" is an item).
    top: int | None = None
    for n, line in enumerate(lines, 1):
        m = _CHECK.match(line)
        if not m:
            if line.strip() and not line[:1].isspace():
                top = None  # a heading or a paragraph ends the list
            continue
        indent = len(line) - len(line.lstrip())
        top = indent if top is None else top
        last = n  # an item wrapped onto the lines under it ("… or new\nfeatures") is one item
        while last < len(lines) and lines[last].strip() and not _CHECK.match(lines[last]) \
                and not re.match(r"\s*(?:[-*+#>|]|\d+[.)])", lines[last]):
            last += 1
        item = plain(" ".join([m.group("item"), *(x.strip() for x in lines[n:last])]))
        if len(item.split()) < 4 or GENERIC.search(item) or LEANS.match(item) \
                or _KIND_OF_CHANGE.match(item) \
                or not item[:1].isupper() or indent > top \
                or (len(item.split()) <= 8 and "`" not in item and ROUTINE.search(item)):
            continue  # a sub-item, or one leaning on the item before, says nothing alone
        if "?" in item:
            continue  # a reviewer's question ("Tests. Does the PR implement sufficient …?")
        item = checklist_rule(item)
        if item is None:
            continue  # "I accept that @maintainer may be pedantic", "AI was used to …"
        out.append(Proposal(source="docs", kind="interaction",
                            text=f"{name} ({rel}, {what}): {item}",
                            provenance=lines_label(rel, n, last), rule="pr-checklist"))
    return out


# A checklist item said in the first person is a rule only when it names an action:
# "I've run the latest black …" is "Run the latest black …"; "I accept that …", "I understand
# that this PR may be closed …" state no rule.
_FIRST_PERSON = re.compile(r"^(?:I|you|we)(?:'ve| have)?\s+(?:(?:already|also)\s+)?(?P<verb>[a-z]+)"
                           r"\b\s*(?P<rest>.*)$", re.I)
_ACTIONS = {"run": "Run", "ran": "Run", "add": "Add", "added": "Add", "update": "Update",
            "updated": "Update", "test": "Test", "tested": "Test", "document": "Document",
            "documented": "Document", "write": "Write", "written": "Write", "wrote": "Write",
            "include": "Include", "included": "Include", "check": "Check", "checked": "Check",
            "follow": "Follow", "followed": "Follow", "format": "Format",
            "formatted": "Format", "lint": "Lint", "linted": "Lint", "sign": "Sign",
            "signed": "Sign", "rebase": "Rebase", "rebased": "Rebase", "build": "Build",
            "built": "Build", "verify": "Verify", "verified": "Verify", "use": "Use",
            "used": "Use", "link": "Link", "linked": "Link", "create": "Create",
            "created": "Create", "review": "Review", "reviewed": "Review"}
# A checkbox label, not a rule: "AI was used to generate this PR."
_DECLARED = re.compile(r"^(?!(?:I|you|we)\b)(?:[\w`'-]+ ){1,4}(?:was|were) \w+(?:ed|en)\b", re.I)


def checklist_rule(item: str) -> str | None:
    """A checklist item as a rule, or None when it states none (see `_FIRST_PERSON`)."""
    if _DECLARED.match(item):
        return None
    m = _FIRST_PERSON.match(item)
    if m is None:
        # "Ran the linter …", the "I" left out: said as the rule ("Run the linter …")
        first, _, rest = item.partition(" ")
        verb = _ACTIONS.get(first.lower())
        if rest and verb and verb.lower() != first.lower():
            return f"{verb} {rest.rstrip(' .')}."
        return item
    verb = _ACTIONS.get(m["verb"].lower())
    if verb is None or not m["rest"]:
        return None
    rest = re.split(r",?\s+and (?:I|you|we)\b|;\s*(?:I|you|we)\b", m["rest"])[0].rstrip(" .")
    return f"{verb} {rest}."


# Extras that hold development tools rather than what users install.
_DEV_EXTRAS = re.compile(r"^(?:dev|develop|development|tests?|testing|docs?|lint|linting"
                         r"|typing|types|check|checks|ci|style|qa|benchmark|bench)(?:[-_].*)?$",
                         re.I)
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def runtime_requirements(root: Path) -> dict[str, tuple[int, ...]]:
    """What the project's users install with it: each name (lower case, `_` as `-`) with the
    least version HEAD allows, `()` when it names none (`pytest>=8.4,<10`: {"pytest": (8, 4)}).
    Read from `[project] dependencies` and the extras that are no development group in
    pyproject.toml, `install_requires` and such extras in setup.cfg. A library the code imports
    is the code's own business, not a development tool a contributor uses."""
    out: dict[str, tuple[int, ...]] = {}
    for requirement in _runtime_requirements(root):
        if (m := _REQUIREMENT_NAME.match(requirement)) is None:
            continue
        spec = requirement[m.end():].split(";")[0]
        floor = re.search(r"(?:>=|==|~=)\s*(\d+(?:\.\d+)*)", spec)
        out[m.group(1).lower().replace("_", "-")] = version_key(floor.group(1)) if floor else ()
    return out


def version_key(text: str) -> tuple[int, ...]:
    """"3.1.0" as (3, 1), for comparing: trailing zeros say nothing, so "3.1" is not below
    "3.1.0"."""
    parts = [int(x) for x in text.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _runtime_requirements(root: Path) -> list[str]:
    names: list[str] = []
    for path in pyproject_file(root):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8", errors="replace"))
        except (tomllib.TOMLDecodeError, ValueError, OSError):
            data = {}
        project = _table(data, "project")
        names += [r for r in project.get("dependencies", ()) if isinstance(r, str)]
        extras = project.get("optional-dependencies", {})
        if isinstance(extras, dict):
            names += [r for extra, reqs in extras.items() if not _DEV_EXTRAS.match(str(extra))
                      and isinstance(reqs, list) for r in reqs if isinstance(r, str)]
    setup_cfg = root / "setup.cfg"
    if regular_file(setup_cfg):
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(setup_cfg.read_text(encoding="utf-8", errors="replace"))
        except (configparser.Error, OSError):
            parser = configparser.ConfigParser(interpolation=None)
        if parser.has_option("options", "install_requires"):
            names += parser.get("options", "install_requires").splitlines()
        if parser.has_section("options.extras_require"):
            names += [line for extra, reqs in parser.items("options.extras_require")
                      if not _DEV_EXTRAS.match(extra) for line in reqs.splitlines()]
    return names

