"""`kenning extract`: transcripts become redacted, deduplicated fact YAML, exactly once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from conftest import git
from kenning.core.locks import exclusive_lock
from kenning.core.paths import current_project
from kenning.core.redact import find_secrets
from kenning.extract.pipeline import lock_path, state_path
from sample_secrets import PEM, SECRETS
from transcript_writer import SESSION, Transcript

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
REFERENCE = Path(__file__).parents[1] / "bench" / "data" / "transcripts"  # copied, with licences
REFERENCE_FILES = sorted(REFERENCE.rglob("*.jsonl"))


def _store(project: Path) -> Path:
    return current_project(project).personal_facts_dir


def _facts(directory: Path) -> list[dict]:
    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.yaml"))]


def _snapshot(*roots: Path) -> dict[str, bytes]:
    out = {}
    for root in roots:
        for p in sorted(root.rglob("*")) if root.exists() else ():
            if p.is_file():
                out[str(p)] = p.read_bytes()
    return out


def _extract(kenning, path: Path, *args: str):
    result = kenning("extract", str(path), "--settle", "0", "--json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)


# --- facts land as YAML, once -------------------------------------------------------------


@pytest.mark.parametrize("name,rules", [
    ("parallel_tools.jsonl", {"command-fix", "correction"}),
    ("flat_legacy.jsonl", {"preference"}),
    ("rewind_compact.jsonl", {"preference"}),
])
def test_fixture_transcripts_land_as_fact_yaml_with_session_evidence_and_rule(
    kenning, isolated, name, rules
):
    report = _extract(kenning, FIXTURES / name)
    facts = _facts(_store(isolated))
    assert {f["source"]["rule"] for f in facts} == rules
    assert len(facts) == len(report["candidates"])
    for fact, cand in zip(sorted(facts, key=lambda f: f["text"]),
                          sorted(report["candidates"], key=lambda c: c["text"]), strict=True):
        assert fact["source"]["origin"] == "transcript"
        assert fact["source"]["session"] == cand["session"] and fact["source"]["session"]
        assert fact["source"]["evidence"] == cand["evidence"]
        assert fact["confidence"] == 0.70 and cand["action"] == "added"
        assert fact["id"] == cand["fact_id"]


def test_rewound_branch_is_not_extracted(kenning, isolated):
    _extract(kenning, FIXTURES / "rewind_compact.jsonl")
    texts = [f["text"] for f in _facts(_store(isolated))]
    assert texts == ["Use argparse for the argument parser; no new dependencies."]


def test_subagent_transcripts_are_read_with_the_session(kenning, isolated):
    report = _extract(kenning, FIXTURES / f"{'9b1c6a52-3f0e-4c1d-8e2a-5d7f0b3c4a11'}.jsonl")
    assert len(report["transcripts"]) == 2
    assert report["transcripts"][1].endswith("subagents/agent-a7f3c21.jsonl")


def test_running_twice_changes_nothing_the_second_time(kenning, isolated, tmp_path):
    home = Path(os.environ["KENNING_HOME"])
    first = _extract(kenning, FIXTURES / "parallel_tools.jsonl")
    assert [c["action"] for c in first["candidates"]] == ["added", "added"]
    facts_before = _snapshot(_store(isolated))
    second = _extract(kenning, FIXTURES / "parallel_tools.jsonl")
    assert second["lines"] == 0 and second["candidates"] == []
    # even reading the whole file again (cursor reset) re-confirms nothing
    third = _extract(kenning, FIXTURES / "parallel_tools.jsonl", "--from-start")
    assert [c["action"] for c in third["candidates"]] == ["seen", "seen"]
    assert _snapshot(_store(isolated)) == facts_before
    assert (home / "projects").is_dir()


def test_second_run_reads_only_the_new_lines(kenning, isolated, tmp_path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Always run ruff check before committing to this repo.")
    t.assistant("Noted.")
    first = _extract(kenning, t.path)
    assert first["lines"] == 2 and len(first["candidates"]) == 1
    offset = json.loads(state_path(current_project(), SESSION).read_text())["cursors"]
    assert list(offset.values())[0]["offset"] == t.path.stat().st_size
    t.user("We use pnpm for every package in web/, never npm.")
    t.assistant("OK, switching to pnpm.")
    second = _extract(kenning, t.path)
    assert second["lines"] == 2
    assert [c["text"] for c in second["candidates"]] == [
        "We use pnpm for every package in web/, never npm."]
    assert len(_facts(_store(isolated))) == 2


def test_a_duplicate_statement_reconfirms_the_existing_fact(kenning, isolated, tmp_path):
    added = kenning("add", "--origin", "agent", "--json",
                    "Always run ruff check before committing to this repo.")
    fact_id = json.loads(added.out)["id"]
    t = Transcript(tmp_path / "s.jsonl")
    t.user("always run ruff check before committing to this repo")
    report = _extract(kenning, t.path)
    assert [(c["action"], c["fact_id"]) for c in report["candidates"]] == [
        ("reconfirmed", fact_id)]
    facts = _facts(_store(isolated))
    assert len(facts) == 1 and facts[0]["confidence"] == 0.90


def test_assistant_words_are_never_evidence(kenning, isolated, tmp_path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Can you look at the importer?")
    t.assistant("Always run ruff check before committing. We use pnpm for web/.")
    report = _extract(kenning, t.path)
    assert report["candidates"] == [] and _facts(_store(isolated)) == []


def test_interaction_facts_stay_personal_after_init(kenning, repo, tmp_path):
    assert kenning("init", "--no-move-facts").code == 0
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Keep your answers short and skip the closing summaries.")
    t.user("We use pnpm for every package in web/, never npm.")
    report = _extract(kenning, t.path)
    assert len(report["candidates"]) == 2
    personal = _facts(current_project().personal_facts_dir)
    project = _facts(repo / ".kenning" / "facts")
    assert [f["kind"] for f in personal] == ["interaction"]
    assert [f["kind"] for f in project] == ["codebase"]
    assert "web/" in project[0]["text"]
    status = git(repo, "status", "--porcelain", "--untracked-files=all")
    assert ".kenning/facts/" in status and "extract" not in status  # cursors stay local


# --- secrets ------------------------------------------------------------------------------



def _secret_session(path: Path) -> Transcript:
    s = SECRETS
    t = Transcript(path)
    t.user(
        "<kenning-context>\n- [id=01JF3Z8Q6T1V3N1C2X7D9K4M5P] (codebase, 0.90) Deploy with "
        f"token {s['github']} from scripts/deploy.sh.\n</kenning-context>", isMeta=True)
    t.user(f"Always pass --token {s['github']} to scripts/deploy.sh when releasing.")
    t.user(f"We use postgres://admin:{s['url_password']}@db.internal:5432/app for staging.")
    t.user(f"Never hardcode {s['aws']} in config/settings.py; read it from the environment.")
    t.user(f"The deploy job must export STRIPE_KEY={s['stripe']} before scripts/release.sh.")
    t.user(f"We use the OpenAI key {s['openai']} for the eval harness in tools/eval.py.")
    t.user(f"Always set ANTHROPIC_API_KEY={s['anthropic']} in .env.local for the summariser.")
    t.user(f"We use {s['google']} as the Maps key in web/maps.ts.")
    t.user(f"Prefer password={s['password']} over the default in docker-compose.yml.")
    t.user(f'Use curl -H "Authorization: Bearer {s["jwt"]}" against staging, not production.')
    t.user(f"We use the Slack bot token {s['slack']} for alerts in ops/alerts.py.")
    t.bash("cat .env", f"AWS_SECRET_ACCESS_KEY={s['aws_secret']}\n{PEM}\n"
           f'{{"api_key": "{s["openai"]}"}}')
    t.bash(f"deploy --token {s['github']}", "bash: deploy: command not found", error=True)
    t.bash(f"./scripts/deploy.sh --token {s['github']}", "deployed")
    return t


def test_a_transcript_full_of_secrets_yields_facts_with_no_secret(kenning, isolated, tmp_path):
    t = _secret_session(tmp_path / "transcript" / "s.jsonl")
    dry = kenning("extract", str(t.path), "--dry-run")
    report = _extract(kenning, t.path)
    assert len(report["candidates"]) >= 10
    facts = _facts(_store(isolated))
    assert len(facts) >= 10
    assert sum("[REDACTED:" in f["text"] for f in facts) >= 9
    written = _snapshot(Path(os.environ["KENNING_HOME"]), isolated)
    assert written
    outputs = {"dry-run output": dry.out.encode(), **written}
    for where, data in outputs.items():
        text = data.decode("utf-8", "replace")
        for name, secret in SECRETS.items():
            assert secret not in text, f"{name} leaked into {where}"
        if where != "dry-run output" and not where.endswith(".db"):
            assert find_secrets(text) == [], where


# --- dry run --------------------------------------------------------------------------------


def test_dry_run_prints_candidates_with_evidence_and_writes_nothing(kenning, isolated, tmp_path):
    home = Path(os.environ["KENNING_HOME"])
    t = Transcript(tmp_path / "t" / "s.jsonl")
    uuid = t.user("No, use `uv run pytest`, not bare pytest. Thanks!")
    before = _snapshot(isolated, tmp_path / "t")
    result = kenning("extract", str(t.path), "--dry-run")
    assert result.code == 0, result.err
    assert "planned" in result.out and "Use `uv run pytest`, not bare pytest." in result.out
    assert f'evidence: {uuid} "No, use `uv run pytest`' in result.out
    assert "nothing written" in result.out
    assert not home.exists()
    assert _snapshot(isolated, tmp_path / "t") == before
    # and the real run afterwards still sees everything
    assert len(_extract(kenning, t.path)["candidates"]) == 1
    again = kenning("extract", str(t.path), "--dry-run", "--from-start")
    assert "dry run: 0 candidate(s), 1 already handled" in again.out


# --- the lock and the hooks -----------------------------------------------------------------


def _spawn_extract(path: Path, project: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kenning", "-C", str(project), "extract", str(path),
         "--settle", "0", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_an_extraction_waits_for_the_machine_lock(isolated, tmp_path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Always run ruff check before committing to this repo.")
    with exclusive_lock(lock_path(current_project())):
        proc = _spawn_extract(t.path, isolated)
        time.sleep(2.0)
        assert proc.poll() is None  # still waiting
        assert not _store(isolated).exists()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [c["action"] for c in json.loads(out)["candidates"]] == ["added"]


def test_concurrent_runs_serialise_and_add_each_fact_once(isolated, tmp_path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Always run ruff check before committing to this repo.")
    t.user("We use pnpm for every package in web/, never npm.")
    t.bash("pytest", "bash: pytest: command not found", error=True)
    t.bash("uv run pytest", "3 passed")
    procs = [_spawn_extract(t.path, isolated) for _ in range(4)]
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        reports.append(json.loads(out))
    actions = sorted(c["action"] for r in reports for c in r["candidates"])
    assert actions == ["added"] * 3
    assert len(_facts(_store(isolated))) == 3


def test_the_hooks_detached_wrapper_runs_kenning_extract_and_clears_the_mark(
    isolated, tmp_path
):
    from kenning.hooks.extract_runner import run
    from kenning.hooks.marks import mark_path

    shutil.copy(FIXTURES / "parallel_tools.jsonl", tmp_path / "session.jsonl")
    local_dir = str(current_project().local_dir)
    mark = Path(mark_path(local_dir, SESSION))
    mark.parent.mkdir(parents=True)
    mark.write_text(json.dumps({"session": SESSION, "root": str(isolated),
                                "transcript": str(tmp_path / "session.jsonl")}))
    assert run(local_dir) == 1
    assert not mark.exists()
    facts = _facts(_store(isolated))
    assert {f["source"]["session"] for f in facts} == {"9b1c6a52-3f0e-4c1d-8e2a-5d7f0b3c4a11"}
    assert len(facts) == 2


def test_extraction_waits_until_the_transcript_stops_growing(isolated, tmp_path):
    import threading

    from kenning.extract.pipeline import extract_transcript
    from kenning.memory import Memory

    t = Transcript(tmp_path / "s.jsonl")
    t.user("Can you look at the importer?")

    def late_writer():
        time.sleep(0.5)
        t.user("Always run ruff check before committing to this repo.")

    writer = threading.Thread(target=late_writer)
    writer.start()
    memory = Memory(current_project(), embedder_name="fake")
    try:
        report = extract_transcript(memory, t.path, settle=1.0, settle_timeout=10)
    finally:
        memory.close()
        writer.join()
    assert report.stable and report.lines == 2
    assert [o.action for o in report.outcomes] == ["added"]


def test_a_missing_transcript_is_a_clear_error(kenning, tmp_path):
    result = kenning("extract", str(tmp_path / "nope.jsonl"), "--settle", "0")
    assert result.code == 1 and "no transcript at" in result.err


# --- the real transcripts (skipped where they are not available) ------------------------


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: str(p.relative_to(REFERENCE)))
def test_every_reference_transcript_extracts_without_error_and_only_once(kenning, path):
    first = _extract(kenning, path)
    assert first["lines"] > 0 or path.stat().st_size == 0
    for c in first["candidates"]:
        assert c["evidence"] and c["rule"] and c["action"] in ("added", "reconfirmed")
    again = _extract(kenning, path)
    assert again["lines"] == 0 and again["candidates"] == []
