"""A project's security policy (`SECURITY.md`): how a vulnerability is reported, and which
releases get fixes. Both hold for every contributor and no other file says them.

What is proposed, at most one sentence of each kind:
- how to report a vulnerability: the first sentence of the policy that asks for a report and
  says where it goes ("To report a security vulnerability, please use the Tidelift security
  contact (https://tidelift.com/security).", "Please report the vulnerability using
  https://github.com/…/security/advisories/new.");
- what not to do: "Please do not file public GitHub issues for security vulnerabilities …";
- which releases are supported, when a sentence says it ("We currently support only the
  latest release of beets."); a table of versions is left out (it goes stale with every
  release).
A mail link keeps its words and loses its address: a fact names no one's mailbox.
Pure and stdlib only.
"""

from __future__ import annotations

import re
from pathlib import Path

from kenning.extract.seed.documents import line_of
from kenning.extract.seed.model import Proposal, lines_label, regular_file

FILES = ("SECURITY.md", ".github/SECURITY.md", "docs/SECURITY.md", "SECURITY.rst")
MAX_SENTENCE = 300

_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)|\[([^\]]+)\]\[[^\]]*\]")
_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s")  # a list item is no sentence of the policy
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*])")
_REPORT = re.compile(r"\breport\w*\b", re.I)
_WHERE = re.compile(r"https?://|\b(?:e-?mail|advisor(?:y|ies)|security contact|security tab"
                    r"|contact)\b", re.I)
_NOT_PUBLIC = re.compile(r"\b(?:do not|don't|never)\b[^.]*\bpublic\b", re.I)
_SUPPORTED = re.compile(r"\bsupport(?:s|ed)?\b[^.]*\b(?:latest|newest|current|only)\b"
                        r"|\bonly\b[^.]*\bsupport", re.I)
_VULNERABILITY = re.compile(r"\b(?:vulnerabilit|security)", re.I)
# A sentence drawn from what came before: "Therefore we only support the latest version."
# says its rule without the "Therefore"; "Alternatively, …" needs the way it is the other of.
_SO = re.compile(r"^(?:therefore|thus|hence|so),?\s+", re.I)
_INSTEAD = re.compile(r"^instead\b", re.I)
_ANOTHER_WAY = re.compile(r"^(?:alternatively|otherwise|also|additionally)\b", re.I)


def security_files(root: Path) -> list[Path]:
    return [root / name for name in FILES if regular_file(root / name)]


def _plain(line: str) -> str:
    """Markdown's emphasis and links read as words: `[text](https://…)` keeps its address
    after the words, a mail link only its words."""
    def link(m: re.Match[str]) -> str:
        if m.group(3):
            return m.group(3)
        text, url = m.group(1), m.group(2)
        return text if url.startswith("mailto:") or url in text else f"{text} ({url})"
    line = _LINK.sub(link, line)
    line = re.sub(r"(?:^|\s)>\s*|\[!\w+\]", " ", line)  # quote marks, GitHub's [!WARNING]
    return " ".join(re.sub(r"\*\*|__|⚠️|[*_](?=\w)|(?<=\w)[*_]", "", line).split())


def _sentences(text: str) -> list[tuple[int, str]]:
    """(line number, sentence) of each paragraph's sentences, each on the line it starts on;
    headings, tables and list items are no sentences."""
    out: list[tuple[int, str]] = []
    para: list[str] = []
    start = 0
    for n, line in enumerate([*text.splitlines(), ""], start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "|", "```")) or _ITEM.match(stripped):
            out += [(start + line_of(s, para) - 1, s)
                    for s in _SENTENCE_END.split(_plain(" ".join(para)))] if para else []
            para = []
            continue
        if not para:
            start = n
        para.append(stripped)
    return out


def proposals(text: str, rel: str, project: str) -> list[Proposal]:
    found: dict[str, tuple[int, str]] = {}
    before: tuple[int, str] | None = None
    for n, sentence in _sentences(text):
        previous, before = before, (n, sentence)
        if _INSTEAD.match(sentence) and previous is not None \
                and len(previous[1]) + len(sentence) < MAX_SENTENCE:
            # "Instead, please report it privately …" says where, after the sentence that
            # says where not: one rule, said whole
            if found.get("public") == previous:
                del found["public"]
            n, sentence = previous[0], f"{previous[1]} {sentence}"
        if len(sentence) > MAX_SENTENCE or not sentence.endswith((".", "!")) \
                or _ANOTHER_WAY.match(sentence):
            continue  # "Alternatively, …" is the second way, said after the first
        sentence = _SO.sub("", sentence)
        sentence = sentence[0].upper() + sentence[1:]
        if "report" not in found and _REPORT.search(sentence) and _WHERE.search(sentence) \
                and _VULNERABILITY.search(sentence):
            found["report"] = (n, sentence)
        elif "public" not in found and _NOT_PUBLIC.search(sentence):
            found["public"] = (n, sentence)
        elif "supported" not in found and _SUPPORTED.search(sentence):
            found["supported"] = (n, sentence)
    return [Proposal(source="docs", kind="interaction" if key != "supported" else "decision",
                     text=f"{project} security policy ({rel}): {sentence}",
                     provenance=lines_label(rel, n, n), rule=f"security-{key}")
            for key, (n, sentence) in sorted(found.items(), key=lambda kv: kv[1][0])]
