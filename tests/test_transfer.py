"""Export (json, csv, md) and import of Claude Code auto-memory notes."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from kenning.core.paths import current_project
from kenning.insight.transfer import claude_memory_dir, note_fact, parse_note, project_slug

SAMPLE = Path(__file__).parent / "fixtures" / "claude_memory"


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    target = tmp_path / "claude-memory"
    shutil.copytree(SAMPLE, target)
    return target


def fact_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.yaml")) if directory.exists() else []


# ---- import -------------------------------------------------------------------------------
def test_importing_a_sample_folder_twice_creates_the_facts_once(kenning, isolated, memory_dir):
    assert kenning("init", "--no-move-facts").code == 0
    project = current_project()
    first = json.loads(kenning("import", str(memory_dir), "--json").out)
    actions = {Path(i["path"]).name: i["action"] for i in first["items"]}
    assert actions == {
        "MEMORY.md": "skipped", "notes_without_frontmatter.md": "skipped",
        "odd_type.md": "skipped", "user_role.md": "added", "feedback_testing.md": "added",
        "project_freeze.md": "added", "reference_dashboards.md": "added",
    }
    personal = fact_files(project.personal_facts_dir)
    shared = fact_files(project.project_facts_dir)
    assert len(personal) == 2 and len(shared) == 2  # user + feedback stay personal
    before = {p: p.read_bytes() for p in personal + shared}

    second = kenning("import", str(memory_dir))
    assert second.code == 0, second.err
    assert "added 0 facts" in second.out and "4 already known" in second.out
    after = fact_files(project.personal_facts_dir) + fact_files(project.project_facts_dir)
    assert {p: p.read_bytes() for p in after} == before  # nothing rewritten either


def test_imported_facts_carry_kind_origin_tags_and_rationale(kenning, isolated, memory_dir):
    kenning("import", str(memory_dir))
    facts = json.loads(kenning("export", "--format", "json").out)
    by_kind = {}
    for fact in facts:
        by_kind.setdefault(fact["kind"], []).append(fact)
    assert sorted(by_kind) == ["codebase", "decision", "interaction"]
    assert all(f["origin"] == "import" and f["confidence"] == 0.70 for f in facts)
    testing = next(f for f in facts if "real database" in f["text"])
    assert testing["kind"] == "interaction"
    assert testing["rationale"].startswith("mocked tests passed last quarter")
    assert "How to apply: every database-related" in testing["text"]
    assert testing["tags"] == ["claude-memory", "feedback"]
    assert testing["topic"] == "claude-memory/feedback_testing"
    freeze = by_kind["decision"][0]
    assert freeze["text"].startswith("Non-critical merges are frozen")
    assert "the testing rules" in freeze["text"] and "[[" not in freeze["text"]
    assert by_kind["codebase"][0]["tags"] == ["claude-memory", "reference"]


def test_a_changed_note_supersedes_its_earlier_import(kenning, isolated, memory_dir):
    kenning("import", str(memory_dir))
    note = memory_dir / "project_freeze.md"
    note.write_text(note.read_text(encoding="utf-8").replace(
        "Non-critical merges are frozen from 2026-03-05",
        "The merge freeze ended early on 2026-03-09; merges are open again"), encoding="utf-8")
    out = json.loads(kenning("import", str(memory_dir), "--json").out)
    added = [i for i in out["items"] if i["action"] == "added"]
    assert len(added) == 1
    every = json.loads(kenning("export", "--all").out)
    old = [f for f in every if f["text"].startswith("Non-critical")]
    assert old and old[0]["status"] == "superseded"


def test_dry_run_writes_nothing(kenning, isolated, memory_dir):
    result = kenning("import", str(memory_dir), "--dry-run")
    assert result.code == 0
    assert "would add 4 facts" in result.out
    project = current_project()
    assert fact_files(project.personal_facts_dir) == []
    single = kenning("import", str(memory_dir / "user_role.md"), "--dry-run")
    assert "would add 1 facts" in single.out


def test_default_folder_is_claude_codes_project_memory(kenning, isolated, memory_dir,
                                                       tmp_path, monkeypatch):
    config = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    root = current_project().root
    expected = config / "projects" / project_slug(root) / "memory"
    assert claude_memory_dir(root) == expected
    assert project_slug(Path("/home/me/my_app.v2")) == "-home-me-my-app-v2"
    missing = kenning("import")
    assert missing.code == 1 and str(expected) in missing.err
    expected.parent.mkdir(parents=True)
    shutil.copytree(memory_dir, expected)
    assert "added 4 facts" in kenning("import").out


def test_an_imported_secret_is_redacted_and_still_deduplicated(kenning, isolated, tmp_path):
    folder = tmp_path / "mem"
    folder.mkdir()
    (folder / "ref.md").write_text(
        "---\nname: ref\ntype: reference\n---\nThe staging key is "
        "AKIAIOSFODNN7EXAMPLE and lives in the team vault.\n", encoding="utf-8")
    kenning("import", str(folder))
    text = json.loads(kenning("export").out)[0]["text"]
    assert "AKIAIOSFODNN7EXAMPLE" not in text and "REDACTED" in text
    assert "added 0 facts" in kenning("import", str(folder)).out


def test_parse_note_explains_what_it_cannot_import(tmp_path):
    from kenning.core.errors import KenningError

    bad = tmp_path / "bad.md"
    bad.write_text("---\n: [unclosed\n---\nbody\n", encoding="utf-8")
    with pytest.raises(KenningError, match="frontmatter"):
        parse_note(bad)
    note = parse_note(SAMPLE / "reference_dashboards.md")
    assert (note.type, note.kind, note.name) == ("reference", "codebase", "reference_dashboards")
    text, rationale = note_fact(parse_note(SAMPLE / "user_role.md"))
    assert text.startswith("The user has written Go") and rationale is None


# ---- export -------------------------------------------------------------------------------
@pytest.fixture
def some_facts(kenning, isolated):
    kenning("add", "-a", "src/db.py:connect", "-t", "db", "Connections use WAL journaling")
    kenning("add", "-k", "decision", "-r", "one binary is simpler to ship",
            "We ship a single binary | no plugins")
    forgotten = json.loads(kenning("add", "--json", "Old fact").out)["id"]
    kenning("forget", forgotten)
    return forgotten


def test_export_json_has_every_field(kenning, some_facts):
    data = json.loads(kenning("export", "--format", "json").out)
    assert [f["text"] for f in data] == ["Connections use WAL journaling",
                                         "We ship a single binary | no plugins"]
    first = data[0]
    assert first["about"] == [{"file": "src/db.py", "symbol": "connect"}]
    assert set(first) >= {"id", "kind", "status", "confidence", "text", "rationale", "tags",
                          "topic", "about", "origin", "store", "created", "confirmed",
                          "last_used"}
    every = json.loads(kenning("export", "--all").out)
    assert some_facts in {f["id"] for f in every}


def test_export_csv_is_one_row_per_fact(kenning, some_facts):
    rows = list(csv.DictReader(io.StringIO(kenning("export", "--format", "csv").out)))
    assert len(rows) == 2
    assert rows[0]["about"] == "src/db.py:connect" and rows[0]["tags"] == "db"
    assert rows[1]["rationale"] == "one binary is simpler to ship"
    forgotten = list(csv.DictReader(io.StringIO(
        kenning("export", "--format", "csv", "--status", "forgotten").out)))
    assert [r["id"] for r in forgotten] == [some_facts]


def test_export_markdown_groups_by_kind_and_writes_a_file(kenning, some_facts, tmp_path):
    target = tmp_path / "facts.md"
    result = kenning("export", "--format", "md", "-o", str(target))
    assert result.code == 0 and "wrote 2 facts" in result.err
    text = target.read_text(encoding="utf-8")
    assert "## codebase (1)" in text and "## decision (1)" in text
    assert "We ship a single binary \\| no plugins" in text
    assert "  - why: one binary is simpler to ship" in text
    assert "`src/db.py`" in text and "#db" in text
