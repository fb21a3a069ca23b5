"""The reasons the agent wrote into the code it changed: new comments that say why.

In long agentic sessions the agent settles a design question and then records the answer
where the next reader of the code will look, in a comment above what it added: "walShuttingDown
is set before closing shard channels to prevent SendWALMessage from sending on a closed
channel", "Must be called after closing walShardChs". Such a comment is the agent's last word
on that piece of code, written once the work was done, and it names the code it is about. On
the development sessions (bench/data/SPLITS.md) they held labelled facts that nothing else in
the transcript said as plainly.

Most comments are not that, though (what a line does, a section label, a lint pragma), so a
comment block is kept only when it:

- is new: the edit writes it and the text it replaces did not have it;
- sits in a source file inside the project (the folder Claude Code ran in), written by the
  main conversation (a subagent's edits are its task; its report is what the agent checks);
- gives a reason or a rule: a purpose ("to prevent", "so that", "otherwise"), an obligation
  ("must", "never", "only when"), a cause ("because") or a contrast ("instead of");
- names the code (a call, a snake_case or camelCase name, backticks) and holds 8 to 70 words;
- a doc comment, one that opens with the name the code below it declares ("splitFirstBatch
  peels off the first batch … so a push can carry the pack"), says what that code does; its
  "so a …", "otherwise", "instead of" or "can't" is how the code works, plain from reading
  it. Such a comment is kept only for an obligation or a purpose (`_RULE`: must, because,
  to prevent, so that, only when …). Measured on every labelled session (dev and
  extraction_test2, SPLITS.md round 8): the doc comments this leaves out were 12, 3 of them
  matching a labelled fact (all code comments kept: 40, 28 matching -> 35, 30). A block right
  above a declaration (`function`, `def`, `func`, `class`, `const` …) is that code's doc
  comment too, whatever its first word (round 9, from planetfall's "Flat Saturn-style ring.
  Returns a mesh …" over `export function makeRing(`): on git-sync, which did not motivate
  it, 17 comments, 15 matching -> 16, 15; no dev session changed.

Last word wins: a comment the session rewrote keeps its last version only (two blocks that share
most of their words are one comment), and a comment a later edit took out is dropped. A session
that writes many such comments is a feature being built, and its labelled facts were its first
few design comments, not every helper's doc line: at most `MAX_PER_SESSION` are kept, the first.

Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.extract.conclusions import content_terms, in_project
from kenning.extract.model import Candidate, Turn

_EDITS = ("Edit", "MultiEdit", "Write")
# Source files whose comments are about code; docs, data and config prose are other sources.
_SOURCE = re.compile(
    r"\.(?:go|rs|py|pyi|ts|tsx|js|jsx|mjs|cjs|java|kt|kts|swift|c|cc|cpp|h|hpp|m|rb|ex|exs"
    r"|sh|bash|zsh|fish|ps1|psm1|lua|cs|php|scala|dart|vue|svelte|sql|toml|ya?ml|tf|zig|nim"
    r"|hs|ml|clj|erl)$",
    re.I,
)
# One comment line: `//`, `#`, `--`, `;;`, a `/* … */` or a `*` continuation line.
_COMMENT = re.compile(r"^\s*(?://+!?|#(?![!\[])|--(?!-)|;;|/\*\*?|\*(?![*/]))\s?(?P<text>.*?)"
                      r"\s*(?:\*/)?\s*$")
# Pragmas and markers are not prose.
_PRAGMA = re.compile(
    r"^(?:eslint|nolint|noqa|type:\s*ignore|pyright:|mypy:|@ts-|prettier-|biome-|istanbul"
    r"|pylint:|fmt:|rubocop:|clippy::|#?region\b|endregion|todo\b|fixme\b|xxx\b|hack\b"
    r"|safety:|go:|\+build|-\*-|@(?:param|returns?|throws|type)\b)",
    re.I,
)
# A reason or a rule: what the comment is for, not what the line does.
_REASON = re.compile(
    r"\b(?:to (?:prevent|avoid|ensure|guarantee|keep)|so that|so (?:the|a|an|it|we|that|no"
    r"|nothing)|otherwise|in order to|must(?: not| never)?|never|only (?:when|if|after|once"
    r"|for)|because|instead of|rather than|(?<!\()required(?!\))|can't|cannot)\b",
    re.I,
)
# An obligation or a purpose: what a doc comment must say beyond what its code does. A
# parameter marked "(required)" in a parameter list is no obligation of the project.
_RULE = re.compile(
    r"\b(?:to (?:prevent|avoid|ensure|guarantee|keep)|so that|in order to|must|because"
    r"|only (?:when|if|after|once|for)|(?<!\()required(?!\)))\b",
    re.I,
)
# A declared name: the first word of a doc comment when the line below declares it.
_NAME = re.compile(r"[A-Za-z_]\w*")
# It names the code: backticks, a call, a snake_case or camelCase/CamelCase identifier.
_NAMES_CODE = re.compile(r"`[^`]+`|\w\(\)|\b[a-z]+_\w+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*")
_MIN_WORDS, _MAX_WORDS = 8, 70
_SAME = 0.6  # share of words two comment blocks have in common to be one comment rewritten
MAX_PER_SESSION = 5


def _blocks(text: str) -> list[tuple[str, str]]:
    """The comment blocks of a piece of code: runs of comment lines, joined, each with the
    first line of code below it ("" when none follows)."""
    out: list[tuple[str, str]] = []
    block: list[str] = []
    lines = text.splitlines()
    for n, line in enumerate([*lines, ""]):
        m = _COMMENT.match(line)
        body = m.group("text").strip() if m else ""
        if m and body and not _PRAGMA.match(body):
            block.append(body)
            continue
        if block:
            below = next((x for x in lines[n:] if x.strip() and x.strip() != "*/"), "")
            out.append((" ".join(block), below))
        block = []
    return out


def documents_declaration(block: str, below: str) -> bool:
    """True when `block` is the doc comment of the code line `below`: its first word is a
    name that line declares (`splitFirstBatch` above `func splitFirstBatch(`)."""
    m = _NAME.match(block)
    return bool(_DECLARES.match(below)) or (bool(m) and len(m.group(0)) > 2 and bool(
        re.search(r"(?<![\w.])" + re.escape(m.group(0)) + r"\b", below)))


_DECLARES = re.compile(
    r"^\s*(?:export\s+)?(?:default\s+)?(?:pub(?:\(\w+\))?\s+)?(?:async\s+)?"
    r"(?:function\*?|def|func|fn|class|struct|enum|interface|type|const|let|var|static)\s+[\w(]")


def _edits(turn: Turn) -> list[tuple[str, str]]:
    """(text replaced, text written) of each edit of a source file in the project."""
    out: list[tuple[str, str]] = []
    for _, tool, data in turn.tool_uses:
        path = str(data.get("file_path") or "")
        if tool not in _EDITS or not _SOURCE.search(path) or not in_project(path, turn.cwd):
            continue
        for part in [data, *(e for e in data.get("edits") or () if isinstance(e, dict))]:
            old = str(part.get("old_string") or "")
            new = str(part.get("new_string") or part.get("content") or "")
            if old or new:
                out.append((old, new))
    return out


def is_reason(block: str, below: str = "") -> bool:
    """True when a comment block gives a reason or a rule about named code (for a doc comment
    of the line `below`, an obligation or a purpose)."""
    n = len(block.split())
    if documents_declaration(block, below) and not _RULE.search(block):
        return False
    return (_MIN_WORDS <= n <= _MAX_WORDS and bool(_REASON.search(block))
            and bool(_NAMES_CODE.search(block)) and sum(c.isalpha() for c in block) >= 0.6
            * len(block))


def comment_candidates(turns: Sequence[Turn]) -> list[Candidate]:
    """The new reason-giving comments the main conversation wrote into the project's code,
    the last version of each, at most `MAX_PER_SESSION`, in the order first written."""
    kept: list[tuple[str, Turn, set[str]]] = []
    for turn in turns:
        if turn.is_sidechain or turn.role != "assistant":
            continue
        for old, new in _edits(turn):
            # A later edit that takes a kept comment out withdraws it.
            before = {b for b, _ in _blocks(old)}
            removed = before - {b for b, _ in _blocks(new)}
            kept = [k for k in kept if k[0] not in removed]
            for block, below in _blocks(new):
                if block in before or not is_reason(block, below):
                    continue
                terms = content_terms(block)
                same = [k for k in kept
                        if len(k[2] & terms) >= _SAME * min(len(k[2]), len(terms))]
                if same:  # rewritten: the new words take the place of the first version
                    at = kept.index(same[0])
                    kept = [k for k in kept if k not in same]
                    kept.insert(at, (block, turn, terms))
                else:
                    kept.append((block, turn, terms))
    return [
        Candidate(kind="codebase", text=_finish(block), evidence=turn.uuid, rule="code-comment",
                  session=turn.session_id)
        for block, turn, _ in kept[:MAX_PER_SESSION]
    ]


def _finish(text: str) -> str:
    text = " ".join(text.split())
    if text[:1].islower() and not _NAMES_CODE.match(text.split()[0]):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."
