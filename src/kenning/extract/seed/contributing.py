"""A contributing guide's commands: how to install, test, lint and build the docs. Stdlib only.

Contributing guides (`CONTRIBUTING*`, `HACKING*`, `DEVELOPMENT*`, `RELEASING*` at the root,
in `.github/` or under `docs/`, and the pages of a `docs/contributing/` or
`docs/development/` folder) mostly say their conventions as a lead-in and a code block:

    To run the tests, use:

    ```shell
    $ scripts/test
    ```

Each such block is one proposal: the lead-in (its last sentence, without "Then," / "For
example," and the trailing "use:" / "run:") and the development commands of the block, in
order, each with its trailing comment as what it does ("`tox -e py` (Unit tests)"). The block
is a fenced one (shell, console, bash, sh or no language), an RST literal block (`::`,
`.. code-block:: console`) or an indented Markdown block. Only development commands count:
a project script (`scripts/test`, `./run`), a task runner or tool (`tox -e docs`, `make
test`, `pytest`, `pre-commit install`, `python -m …`); git, `cd`, virtualenv activation and
output lines are left out. A command HEAD no longer bears out is left out: a script that is
gone, a tox environment, nox session, make target or just recipe the project's configuration
does not name, a runner whose configuration file is gone. A command said inside a sentence
("To build the documentation, run ``tox -e docs`` …") is taken the same way; at most
`PER_FILE` commands a file.

And what the guide asks of every contribution: a contribution, pull request, patch, commit or
change as the subject and should / must ("Contributions should generally start out with a
discussion."), with the next sentence when it reads alone; not any project's routine ("The
pull request should include tests."), a hedge or one pointing elsewhere. At most `PER_FILE`.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
from collections.abc import Callable
from pathlib import Path

from kenning.core.errors import FileProblemError
from kenning.core.safeio import read_bytes
from kenning.extract.seed.documents import LEANS
from kenning.extract.seed.formats import site_files, site_source
from kenning.extract.seed.model import (
    Proposal,
    lines_label,
    plain,
    regular_dir,
    regular_file,
    site_dirs,
)
from kenning.extract.seed.tooling import (
    GENERIC,
    ROUTINE,
    TOOLS,
    pr_template_proposals,
    without_env,
)

PER_FILE = 6
MAX_PAGES = 20
MAX_COMMANDS = 4
_NAME = re.compile(r"^(?:contributing|hacking|development|developing|releasing"
                   r"|release[-_]process)(?:\.(?:md|rst|txt|markdown))?$", re.I)
_RELEASE_GUIDE = re.compile(r"^releas(?:ing|e[-_]process)\b", re.I)
# A list item's mark: "- ", "* ", "1. ", "#. ".
_STEP = re.compile(r"^\s*(?:[-*+]|\d+[.)]|#\.)\s+")
_PLACES = ("", ".github", "docs", "doc", "docs/source", "doc/source", "docs/about")
_FOLDERS = ("docs/contributing", "docs/development", "doc/contributing", "doc/development",
            "docs/source/contributing", "docs/source/development", "docs/developer")
_RUNNERS = frozenset(TOOLS) | {"just", "invoke", "poetry", "pdm", "hatch", "uv", "uvx",
                               "pipx", "nox", "tox", "yarn", "pnpm", "npx", "rye", "flit",
                               "prek", "poe"}
# What a runner needs at HEAD to run at all.
_RUNNER_FILES = {"tox": ("tox.ini", "tox.toml", "pyproject.toml", "setup.cfg"),
                 "nox": ("noxfile.py",), "make": ("Makefile", "makefile", "GNUmakefile"),
                 "just": ("justfile", "Justfile", ".justfile"),
                 "pre-commit": (".pre-commit-config.yaml", ".pre-commit-config.yml"),
                 "prek": (".pre-commit-config.yaml", ".pre-commit-config.yml", "prek.toml")}
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<mark>```+|~~~+)\s*\{?(?P<lang>[\w-]*)\}?\s*$")
_SHELL = ("", "shell", "sh", "bash", "console", "shell-session", "sh-session", "zsh", "text",
          "none", "bat", "doscon")
_RST_CODE = re.compile(r"^\s*\.\.\s+(?:code-block|code|sourcecode|prompt)::\s*(?P<lang>[\w-]*)")
_PROMPT = re.compile(r"^(?:\([^)]*\)\s*)?[$%]\s+|^>\s+(?=\w)")
_HEADING = re.compile(r"^\s*#{1,6}\s+\S|^([=\-~^\"'`#*+])\1{2,}\s*$")
# Words that only join the lead-in to the block: "Then", "For example, to …", "… use:".
_OPENING = re.compile(r"^(?:(?:then|next|lastly|finally|first|also|now|alternatively|"
                      r"for example|e\.g\.|similarly|afterwards|optionally|\(optional\))"
                      r",?\s+)+", re.I)
_CLOSING = re.compile(r"(?:,?\s+(?:you (?:should|can|could|may|must|need to)|just|simply|use"
                      r"|run|do|type|execute|invoke|enter|with|using|like so|like this|"
                      r"as follows|(?:with |run )?the following commands?|by running|for example|"
                      r"e\.g\.|such as))+\s*:+$|\s*:+$", re.I)
# "Or via nox:", "To run them explicitly:", "Our `noxfile.py` handles much of this for you:":
# what they do is said above, not here.
_LEANING = re.compile(r"^(?:or|and|our|there is|there are)\b|\bthe (?:process|procedure|steps?"
                      r"|above|same)\b|\b(?:it|them|they|these|those)\b"
                      r"|\bthis\b(?! (?:project|repository|repo|package|library|command))"
                      r"|\bthat\W*$|\blooks?(?: \w+)? like\b|\b(?:might|may|would|will|could)"
                      r" look\b", re.I)
_YOU_CAN = re.compile(r"^you (?:can|may|should|need to|will need to|must)\s+(?:now\s+|also\s+"
                      r"|then\s+)?", re.I)


def contributing_files(root: Path) -> list[Path]:
    """The contributing guides, shorter paths first, at most `MAX_PAGES`."""
    out: list[Path] = []
    for place in (*_PLACES, *site_dirs(root)):
        folder = root / place if place else root
        if not regular_dir(folder):
            continue
        out += [folder / f for f in sorted(os.listdir(folder))
                if _NAME.match(f) and regular_file(folder / f)]
    for place in _FOLDERS:
        folder = root / place
        if regular_dir(folder):
            out += [folder / f for f in sorted(os.listdir(folder))
                    if f.rpartition(".")[2].lower() in ("md", "rst")
                    and regular_file(folder / f)]
    listed = functools.cache(lambda: site_files(root))  # one walk for every pointer
    out = [_followed(p, root, listed) for p in out]
    seen: set[str] = set()
    unique = []
    for p in out:
        key = p.as_posix().lower()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique[:MAX_PAGES]


POINTER_LINES = 10


def _followed(path: Path, root: Path, listed: Callable[[], list[tuple[str, ...]]]) -> Path:
    """A guide that only sends the reader to the project's website ("See
    https://sanic.dev/en/organization/contributing.html") stands for the page's source, when
    the repository keeps it (`formats.site_source`)."""
    try:
        text = read_bytes(path, 16_384).decode("utf-8", "replace")
    except (FileProblemError, OSError):
        return path
    if len([line for line in text.splitlines() if line.strip()]) > POINTER_LINES:
        return path
    source = site_source(root, text, listed)
    return source if source is not None and source != path else path


def _blocks(lines: list[str]) -> list[tuple[int, int, list[str]]]:
    """Code blocks as (line of the lead-in, last line of the block, its lines)."""
    out: list[tuple[int, int, list[str]]] = []
    n = 0
    while n < len(lines):
        line = lines[n]
        lead_at = _lead_line(lines, n)
        if (m := _fence(lines, n)) is not None:
            end = next((k for k in range(n + 1, len(lines))
                        if lines[k].strip().startswith(m["mark"])), len(lines))
            if m["lang"].lower() in _SHELL and lead_at is not None:
                out.append((lead_at, end + 1, [x.strip() for x in lines[n + 1:end]]))
            n = end + 1
            continue
        rst = _RST_CODE.match(line)
        literal = line.rstrip().endswith("::") and not line.lstrip().startswith("..")
        indented = not line.strip() and n + 1 < len(lines) \
            and re.match(r"^(?:    |\t)\s*\S", lines[n + 1]) and lead_at is not None \
            and not re.match(r"^\s*(?:[-*+]|\d+[.)])\s", lines[n - 1] if n else "")
        if rst or literal or indented:
            if rst and rst["lang"].lower() not in _SHELL:
                n += 1
                continue
            start = n + 1
            while start < len(lines) and (not lines[start].strip()
                                          or lines[start].lstrip().startswith(":")):
                start += 1  # a directive's options
            base = len(lines[n]) - len(lines[n].lstrip())
            end = start
            while end < len(lines) and (not lines[end].strip()
                                        or len(lines[end]) - len(lines[end].lstrip()) > base):
                end += 1
            body = [x.strip() for x in lines[start:end]]
            if literal:  # "To run all tests: ::" is its own lead-in
                lead_at = n if re.sub(r"\s*::$", "", line).strip() else _lead_line(lines, n)
            if lead_at is not None and body:
                out.append((lead_at, end, body))
            n = max(end, n + 1)
            continue
        n += 1
    return out


def _fence(lines: list[str], n: int) -> re.Match[str] | None:
    """Line `n` opens or closes a fenced block; RST's `~~~~` under a heading does not."""
    m = _FENCE.match(lines[n])
    if m and m["mark"].startswith("~") and n and lines[n - 1].strip():
        return None
    return m


def _lead_line(lines: list[str], n: int) -> int | None:
    """The line of the paragraph just above line `n` that ends with a colon, else None."""
    k = n - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k < 0 or _HEADING.match(lines[k]) or not lines[k].rstrip().endswith(":"):
        return None
    return k


def _lead_text(lines: list[str], k: int) -> str:
    """The lead-in paragraph ending on line `k`, its last sentence."""
    start = k
    while start > 0 and lines[start - 1].strip() and not _HEADING.match(lines[start - 1]) \
            and not _FENCE.match(lines[start - 1]):
        start -= 1
    steps = [x for x in lines[start:k + 1] if _STEP.match(x)]
    if len(steps) > 1:
        # a list of steps ("- install `tox`", "- `cd` to the root …", "- run the following
        # command:") leads in: what they are for is the sentence over the list, if any
        above = start - 1
        while above > 0 and not lines[above].strip():
            above -= 1
        said = lines[above].strip() if above >= 0 and above < start - 1 else ""
        return said if said.endswith(":") and not _STEP.match(said) \
            and not _HEADING.match(said) else ""
    para = " ".join(x.strip() for x in lines[start:k + 1])
    para = _STEP.sub("", para)
    para = re.sub(r"\s*::$", ":", para)
    para = re.sub(r"(`[^`<]+`)_+(?!\w)", r"\1", para)  # "`pytest`_": an RST link's name
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z(`*_])", plain(para).rstrip("."))
    if len(sentences) > 1 and _BARE_WAY.match(sentences[-1]):
        return " ".join(sentences[-2:]).strip()
    return sentences[-1].strip()


# A lead-in that leaves its object in the sentence before ("The test suite needs to pass. The
# easy way to check is:"): what is checked is said there.
_BARE_WAY = re.compile(r"^(?:the |an? )?(?:easy|easiest|simple|simplest|quick|quickest|best"
                       r"|usual|recommended) way to \w+(?: (?:it|this|that|them))? is\b", re.I)


def _purpose(lead: str) -> str | None:
    """The lead-in as what the commands do, or None when it does not read alone."""
    text = _OPENING.sub("", lead).strip()
    text = _CLOSING.sub("", text).strip().rstrip(",")
    text = _YOU_CAN.sub("", text)
    if not text or len(text.split()) < 2 or len(text) > 200 or LEANS.match(text) \
            or text.count("`") % 2 \
            or text.startswith("..") or _LEANING.search(re.sub(r"\([^)]*\)", "", text)) \
            or re.search(r"\b(?:git|github|fork|clone|branch|pull request|virtual ?env\w*|venv"
                         r"|activate)\b", text, re.I):
        return None
    return text[:1].upper() + text[1:]


def _command(line: str) -> tuple[str, str] | None:
    """A development command of a block line and what its comment says it does, else None."""
    text = _PROMPT.sub("", line).strip()
    if not text or text.startswith("#") or "\\" in text.split("#")[0]:
        return None  # a comment, a Windows path
    code, _, comment = text.partition(" #")
    code = code.strip()
    try:
        words = shlex.split(code)
    except ValueError:
        return None
    words = without_env(words)
    if not words:
        return None
    first = words[0]
    if first in ("python", "python3", "py") and len(words) > 2 and words[1] == "-m":
        ok = words[2] not in ("venv", "virtualenv")
    elif re.match(r"^(?:\./|scripts/|bin/|tools/|tasks/)[\w./-]+$", first):
        ok = True
    elif re.match(r"^python[\d.]*$", first) and len(words) > 1 \
            and re.match(r"^(?:scripts|tools|tasks|bin)/[\w./-]+\.py$", words[1]):
        ok = True  # "python3 scripts/release.py"
    else:
        ok = first in _RUNNERS and first not in ("cargo", "npm") or first in ("npm", "cargo") \
            and len(words) > 1 and words[1] in ("test", "run", "install", "ci", "build")
    if not ok or (first in ("pip", "uv") and words[1:2] == ["venv"]):
        return None
    args = words[words.index("pip") + 1:] if "pip" in words[:3] else []
    if args[:1] == ["install"] and all(a.startswith("-") or a in _RUNNERS for a in args[1:]):
        return None  # "pip install --user tox": any project's way to get a tool
    if words[:2] == ["pre-commit", "uninstall"] or _any_packages(words):
        return None
    return code, comment.strip()


def _any_packages(words: list[str]) -> bool:
    """Every Python project's packaging, parallel run or runner listing, naming nothing of
    this one: `python -m build`, `twine upload dist/*`, `tox -p auto`, `tox list` (judged
    trivial; `tox -e docs` names an environment the project defined)."""
    if words[:1] == ["twine"] or words[1:3] == ["-m", "build"]:
        rest = words[2:] if words[0] == "twine" else words[3:]
        return all(w.startswith(("-", "dist")) for w in rest)
    if words[:1] == ["tox"] and any(w in ("-p", "--parallel") for w in words):
        return not any(w in ("-e", "--env") or w.startswith("-e") for w in words)
    # a runner asked for its own list or help (`tox list`, `nox -l`, `make help`, `just
    # --list`): every project's
    return len(words) == 2 and words[0] in _RUNNERS and words[1] in (
        "list", "-l", "-a", "--list", "--listenvs", "--list-sessions", "help", "-h", "--help")


def _holds(code: str, root: Path) -> bool:
    """HEAD still has what the command runs."""
    words = without_env(shlex.split(code))
    if re.match(r"^python[\d.]*$", words[0]) and len(words) > 1 and "/" in words[1]:
        words = words[1:]  # the script it runs
    first = words[0]
    if re.match(r"^(?:\./|scripts/|bin/|tools/|tasks/)", first):
        return regular_file(root / first.removeprefix("./"))
    files = _RUNNER_FILES.get(first)
    if files is None:
        return True
    config = ""
    for name in files:
        path = root / name
        if regular_file(path):
            try:
                config += path.read_text(encoding="utf-8", errors="replace")[:200_000]
            except OSError:
                continue
    if first == "tox" and not re.search(r"(?m)^\[tox|^\[testenv|\[tool\.tox|envlist|env_list",
                                        config):
        return False
    if not config:
        return False
    def named(t: str) -> bool:
        return bool(re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", config))

    # an environment by its name, or by its factors ("py311-django": tox builds it)
    return all(named(t) or all(named(f) for f in t.split("-")
                               if not re.fullmatch(r"py\d*|pypy\d*|\d+(?:\.\d+)?", f))
               for t in _named_target(first, words[1:]))


def _named_target(runner: str, args: list[str]) -> list[str]:
    """The environments, sessions, targets or recipes a runner's arguments name."""
    if runner in ("tox", "nox"):
        flag = ("-e", "--env") if runner == "tox" else ("-s", "--session", "--sessions")
        names: list[str] = []
        for k, a in enumerate(args):
            value = args[k + 1] if a in flag and k + 1 < len(args) else \
                a.split("=", 1)[1] if a.startswith(tuple(f"{f}=" for f in flag)) else None
            if value:
                names += [v for v in value.split(",")
                          if v and not re.fullmatch(r"py\d*|pypy\d*|\d+(?:\.\d+)?", v)]
        return names
    if runner in ("make", "just"):
        return [a for a in args[:1] if re.fullmatch(r"[\w.-]+", a) and "=" not in a]
    return []


def _section(lines: list[str], k: int) -> str | None:
    """The heading the line `k` is under, unless it is the page's title (the first heading)."""
    found: list[str] = []
    fence = None
    for n, line in enumerate(lines[:k]):
        if (m := _fence(lines, n)) is not None and (fence is None or m["mark"] == fence):
            fence = None if fence else m["mark"]
            continue
        if fence:
            continue
        if m := re.match(r"^#{1,6}\s+(.+?)\s*#*\s*$", line):
            found.append(m.group(1))
        elif n + 1 < len(lines) and line.strip() and _UNDERLINE.match(lines[n + 1]) \
                and not _UNDERLINE.match(line) \
                and len(lines[n + 1].strip()) >= len(line.strip()) - 2:
            found.append(line.strip())
    return plain(found[-1]).rstrip(".") if len(found) > 1 else None


_UNDERLINE = re.compile(r"^([=\-~^\"'#*+])\1{2,}\s*$")


# What a contributing guide asks of a contribution: "Contributions should generally start out
# with a discussion", "All code changes must be accompanied by unit tests", "Each PR should
# address just one issue": a contribution's artefact as the subject, and a modal close after.
_CONVENTION = re.compile(
    # after what it follows from, if any: "Since we are migrating the tests from unittest to
    # pytest, new tests should be written using pytest."
    r"^(?:(?:since|as|because|when|once|while)\b[^,.;:]{3,100},\s+)?"
    r"(?:(?:all|every|each|any|new|your|the|a|our)\s+)*(?:contributions?|pull[- ]requests?"
    r"|PRs?|patch(?:es)?|commits?|commit messages?|(?:code )?changes|bug reports?|issues?"
    r"|feature requests?|tests?|(?:new )?(?:features?|code|functionality)|documentation|docs"
    r"|changelog(?: entries| entry)?)\b[^.;:,]{0,60}?,?\s*\b(?:should|must|need to|needs to"
    r"|are expected to|is expected to|are required to|is required to|are not accepted"
    r"|is not accepted)\b", re.I)
# A guideline list's item led by its subject in bold ("* **New plugin hooks** should only be
# shipped if accompanied by …", "* **main should always be releasable**."): the bold names what
# the rule is about, whatever it is.
_GUIDELINE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\*\*[^*]{3,60}\*\*")
_RULE_SAID = re.compile(r"^[\w`/ -]{2,50}?\s+(?:should|must|needs? to)\s+"
                        r"(?:always\s+|only\s+|never\s+|not\s+)?(?!be\s+(?:as|possible|able)\b)\w",
                        re.I)
_POINTS = re.compile(r"\b(?:here|this|these|those|above|below|following)\b|:$", re.I)
# Any project's hygiene, hedged: "should be as clear as possible", "should ideally have tests".
_HYGIENE = re.compile(r"\bas (?:clear|descriptive|short|small|simple) as possible\b|\bideally\b",
                      re.I)


def _prose(lines: list[str]) -> list[tuple[int, str]]:
    """Paragraphs (first line, text) outside code blocks, headings and tables."""
    code: set[int] = set()
    for lead_at, end, _ in _blocks(lines):
        code |= set(range(lead_at + 1, end))
    fence = None
    for n in range(len(lines)):
        m = _fence(lines, n)
        if m is not None and (fence is None or m["mark"] == fence):
            fence = None if fence else m["mark"]
            code.add(n)
        elif fence:
            code.add(n)
    out: list[tuple[int, str]] = []
    start, said = 0, []
    for n, line in enumerate([*lines, ""]):
        new_item = _STEP.match(line)
        if n in code or not line.strip() or _HEADING.match(line) or new_item \
                or line.lstrip().startswith(("|", "..", "<", ">")) \
                or (n + 1 < len(lines) and _UNDERLINE.match(lines[n + 1])):
            if said:
                out.append((start, " ".join(said)))
            said = []
            if new_item and n not in code:
                start, said = n, [_STEP.sub("", line).strip()]
            continue
        if not said:
            start = n
        said.append(line.strip())
    return out


# An RST link by a bare name ("unittest_"), outside code: the name.
_RST_NAMED_LINK = re.compile(r"(?<![`\w])([A-Za-z][\w-]*)_(?=[\s.,;:!?)]|$)")


def convention_proposals(text: str, rel: str, project: str) -> list[Proposal]:
    """What the guide at `rel` asks of every contribution (see `_CONVENTION`), with the next
    sentence when it goes on about the same and reads alone; at most `PER_FILE`."""
    lines = text.splitlines()
    out: list[Proposal] = []
    for start, para in _prose(lines):
        para = re.sub(r"`([^`<]+)`_+(?!\w)", r"\1", re.sub(r"\*\*", "", para))
        para = _RST_NAMED_LINK.sub(r"\1", para)  # "from unittest_ to pytest_"
        said = re.split(r"(?<=[.!?])\s+(?=[A-Z*`\"])", plain(para))
        guideline = bool(_GUIDELINE.match(lines[start]))
        for k, sentence in enumerate(said):
            sentence = re.sub(r"\s+\d+\.$", "", sentence.strip())
            asks = _CONVENTION.search(sentence) or (k == 0 and guideline
                                                    and _RULE_SAID.match(sentence))
            if not asks or _POINTS.search(sentence) \
                    or LEANS.match(sentence) or len(sentence) > 300 or GENERIC.search(sentence) \
                    or _HYGIENE.search(sentence) \
                    or (len(sentence.split()) <= 8 and "`" not in sentence
                        and ROUTINE.search(sentence)):
                continue  # "The pull request should include tests.": any project's
            nxt = said[k + 1].strip() if k + 1 < len(said) else ""
            if nxt and len(sentence) + len(nxt) < 300 and not LEANS.match(nxt) \
                    and not _LEANING.search(nxt) and not _POINTS.search(nxt) \
                    and not re.match(r"^(?:we|you|i)\b", nxt, re.I) \
                    and not re.search(r"https?://|`_", nxt):
                sentence = f"{sentence} {nxt}"
            out.append(_said(project, rel, lines, start, start + 1, sentence,
                             "contributing-convention"))
            break
        if len(out) >= PER_FILE:
            break
    return out


# A command said inside a sentence: "To build the documentation, run ``tox -e docs`` which …",
# "Run `make test` to run the tests."
_INLINE = re.compile(r"(?:^|(?<=[.!?]\s))(?:(?P<to>To [^,.`]{3,80}),\s*(?:just\s+)?(?:run|use"
                     r"|invoke|type|execute)\s+(?:\w+\s+with\s+)?`(?P<c1>[^`]+)`"
                     r"|(?:Run|Use|Invoke)\s+`(?P<c2>[^`]+)`\s+(?P<why>to [^.,;]{3,80}))")


def inline_proposals(text: str, rel: str, project: str, root: Path) -> list[Proposal]:
    """The guide's commands said inside a sentence, with what they are for ("To build the
    documentation: `tox -e docs`."); not a numbered setup step (`documents` reads those)."""
    lines = text.splitlines()
    out: list[Proposal] = []
    for start, para in _prose(lines):
        if re.match(r"^\s*\d+[.)]\s", lines[start]):
            continue
        for m in _INLINE.finditer(plain(para).replace("``", "`")):
            command = _command(m["c1"] or m["c2"])
            purpose = _purpose(m["to"] or m["why"])
            if command is None or purpose is None or not _holds(command[0], root):
                continue
            out.append(_said(project, rel, lines, start, start + 1,
                             f"{purpose}: `{command[0]}`.", "contributing-command"))
    return out[:PER_FILE]


def command_proposals(text: str, rel: str, project: str, root: Path) -> list[Proposal]:
    """The guide at `rel` (its text): each lead-in with the development commands of the block
    it introduces, at most `PER_FILE`."""
    lines = text.splitlines()
    out: list[Proposal] = []
    for lead_at, end, body in _blocks(lines):
        if any(_PROMPT.match(x) for x in body):  # a console session: the rest is output
            body = [x for x in body if _PROMPT.match(x)]
        commands = [c for x in body if (c := _command(x)) is not None]
        commands = [c for c in commands if _holds(c[0], root)][:MAX_COMMANDS]
        purpose = _purpose(_lead_text(lines, lead_at))
        if not commands or purpose is None:
            continue
        said = "; ".join(f"`{code}`" + (f" ({plain(comment).rstrip('.')})" if comment else "")
                         for code, comment in commands)
        fact = _said(project, rel, lines, lead_at, end, f"{purpose}: {said}.",
                     "contributing-command")
        if len(fact.text) > 400:
            continue
        out.append(fact)
        if len(out) >= PER_FILE:
            break
    return out


def proposals(text: str, rel: str, project: str, root: Path) -> list[Proposal]:
    """The guide's commands (in blocks, then in sentences: at most `PER_FILE` together) and
    its conventions (at most `PER_FILE`)."""
    commands = command_proposals(text, rel, project, root)
    said = {p.text.rsplit(": ", 1)[-1] for p in commands}
    commands += [p for p in inline_proposals(text, rel, project, root)
                 if p.text.rsplit(": ", 1)[-1] not in said]
    # a checklist to go through before opening a pull request, as a template's is; a release
    # guide's is the maintainers' release routine
    what = "release checklist" if _RELEASE_GUIDE.match(Path(rel).name) \
        else "pull-request checklist"
    return commands[:PER_FILE] + convention_proposals(text, rel, project) \
        + pr_template_proposals(text, rel, project, what)


def _said(project: str, rel: str, lines: list[str], start: int, end: int, words: str,
          rule: str) -> Proposal:
    """A contributing-guide proposal: said of the project with the file and section it is in,
    from line `start` (0-based) to line `end` (1-based)."""
    section = _section(lines, start)
    where = f"{rel}, {section}" if section else rel
    return Proposal(source="docs", kind="interaction", text=f"{project} ({where}): {words}",
                    provenance=lines_label(rel, start + 1, end), rule=rule)
