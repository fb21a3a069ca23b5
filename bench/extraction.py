"""Rule extraction quality on labelled sessions: precision and recall, dev and held-out.

bench/data/extraction_sessions.yaml holds real transcripts (by path, skipped when absent)
and short sessions of our own with distractors, each with the facts a careful engineer
would keep. Every session goes through the real parser and `extract_candidates`. A
candidate (text and rationale) counts as correct when it says one of the kept facts
(rapidfuzz token-set similarity >= 70, one candidate per fact); precision = correct /
candidates, recall = facts found / facts kept. `--check` (and `bench/run.py --check`)
holds the held-out half to precision >= 0.8 and recall >= 0.5 (issue 5).

Usage: python bench/extraction.py [--check] [-v]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import yaml

DATA = Path(__file__).parent / "data" / "extraction_sessions.yaml"
REFERENCE = Path(__file__).parent / "data" / "transcripts"  # copied, with licences
MATCH = 70.0
MIN_PRECISION = 0.8
MIN_RECALL = 0.5


def _write_transcript(path: Path, turns: list[dict]) -> None:
    """A Claude Code transcript for a session written as a list of turns."""
    lines, parent = [], None
    for n, turn in enumerate(turns, 1):
        base = {"parentUuid": parent, "isSidechain": False, "sessionId": "bench",
                "timestamp": f"2026-11-29T10:00:{n:02d}.000Z"}
        if "user" in turn:
            lines.append({**base, "type": "user", "uuid": f"u{n}",
                          "message": {"role": "user", "content": turn["user"]}})
            parent = f"u{n}"
        elif "assistant" in turn:
            lines.append({**base, "type": "assistant", "uuid": f"a{n}", "message": {
                "id": f"m{n}", "role": "assistant",
                "content": [{"type": "text", "text": turn["assistant"]}]}})
            parent = f"a{n}"
        else:
            lines.append({**base, "type": "assistant", "uuid": f"a{n}", "message": {
                "id": f"m{n}", "role": "assistant", "content": [{
                    "type": "tool_use", "id": f"t{n}", "name": "Bash",
                    "input": {"command": turn["bash"]}}]}})
            lines.append({**base, "parentUuid": f"a{n}", "type": "user", "uuid": f"r{n}",
                          "message": {"role": "user", "content": [{
                              "type": "tool_result", "tool_use_id": f"t{n}",
                              "content": turn.get("output", ""),
                              "is_error": bool(turn.get("error"))}]}})
            parent = f"r{n}"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def _candidates(path: Path) -> list[str]:
    from kenning.extract.rules import extract_candidates
    from kenning.extract.transcript import read_transcript, subagent_transcripts

    out: list[str] = []
    for file in [path, *subagent_transcripts(path)]:
        transcript = read_transcript(file)
        out += [f"{c.text} {c.rationale or ''}".strip()
                for c in extract_candidates(transcript.turns, transcript.injected_texts)]
    return out


def _score(candidates: list[str], keep: list[str]) -> tuple[int, int]:
    """(correct candidates, kept facts found): greedy one-to-one matching, best pairs first."""
    from rapidfuzz import fuzz, utils

    pairs = sorted(((fuzz.token_set_ratio(c, k, processor=utils.default_process), i, j)
                    for i, c in enumerate(candidates) for j, k in enumerate(keep)),
                   reverse=True)
    used_c: set[int] = set()
    used_k: set[int] = set()
    for score, i, j in pairs:
        if score < MATCH:
            break
        if i not in used_c and j not in used_k:
            used_c.add(i)
            used_k.add(j)
    return len(used_c), len(used_k)


def evaluate(verbose: bool = False) -> dict[str, dict[str, float]]:
    sessions = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    totals = {split: {"candidates": 0, "correct": 0, "keep": 0, "found": 0, "sessions": 0}
              for split in ("dev", "heldout")}
    with tempfile.TemporaryDirectory() as tmp:
        for n, session in enumerate(sessions):
            if "transcript" in session:
                path = REFERENCE / session["transcript"]
                if not path.is_file():
                    continue
            else:
                path = Path(tmp) / f"s{n}.jsonl"
                _write_transcript(path, session["turns"])
            found = _candidates(path)
            keep = session.get("keep") or []
            correct, recalled = _score(found, keep)
            t = totals[session["split"]]
            t["candidates"] += len(found)
            t["correct"] += correct
            t["keep"] += len(keep)
            t["found"] += recalled
            t["sessions"] += 1
            if verbose:
                print(f"{session['split']:<8} {session['name']:<28} candidates {len(found):>2} "
                      f"correct {correct:>2}  kept {len(keep):>2} found {recalled:>2}",
                      file=sys.stderr)
                for text in found:
                    print(f"    + {text}", file=sys.stderr)
    for t in totals.values():
        t["precision"] = t["correct"] / t["candidates"] if t["candidates"] else 1.0
        t["recall"] = t["found"] / t["keep"] if t["keep"] else 1.0
    return totals


def redaction_false_positives() -> tuple[int, int] | None:
    """(distinct random-looking tokens, distinct strings redacted) over the real transcripts.

    They are public test data with no live secret in them, so every redaction is a false
    positive (git SHAs, UUIDs, message ids, base64 signatures are what it could trip on).
    """
    import re

    from kenning.redact import find_secrets

    files = sorted(REFERENCE.rglob("*.jsonl")) if REFERENCE.is_dir() else []
    if not files:
        return None
    token = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_=-])")
    tokens: set[str] = set()
    flagged: set[str] = set()
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        tokens.update(m.group(0) for m in token.finditer(text))
        flagged.update(text[start:end] for _, start, end in find_secrets(text))
    return len(tokens), len(flagged)


def run(check: bool = False, verbose: bool = False) -> list[dict]:
    """Rows for bench/run.py: precision and recall on each split (held-out is checked) and
    redaction false positives on the real transcripts (<= 1 %)."""
    totals = evaluate(verbose)
    rows = []
    measured = redaction_false_positives()
    if measured:
        tokens, flagged = measured
        share = 100 * flagged / max(1, tokens)
        rows.append({"name": f"redaction false positives ({tokens} random-looking tokens)",
                     "value": round(share, 2), "budget": "<= 1.0", "unit": "%",
                     "ok": share <= 1.0})
    for split in ("dev", "heldout"):
        t = totals[split]
        gated = split == "heldout"
        for metric, floor in (("precision", MIN_PRECISION), ("recall", MIN_RECALL)):
            rows.append({
                "name": f"extraction {metric} ({split}, {t['sessions']} sessions)",
                "value": round(t[metric], 2), "budget": f">= {floor}" if gated else None,
                "unit": "", "ok": (t[metric] >= floor) if gated else True,
            })
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 below the floors")
    parser.add_argument("-v", "--verbose", action="store_true", help="per-session detail")
    args = parser.parse_args()
    rows = run(args.check, args.verbose)
    for r in rows:
        budget = r["budget"] or "-"
        print(f"{r['name']:<56} {r['value']:>5}{r['unit']:<2} {budget:>7}  "
              f"{'ok' if r['ok'] else 'MISSED'}")
    return 1 if args.check and not all(r["ok"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
