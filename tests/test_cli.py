"""The CLI as a user runs it: real YAML on disk, a real SQLite index, real git."""

import json
from pathlib import Path

import yaml

from conftest import git
from kenning.core.ids import new_ulid
from kenning.core.paths import current_project


def fact_files(project: Path) -> list[Path]:
    found = []
    for _, directory in current_project(project).fact_dirs():
        found += sorted(directory.glob("*.yaml"))
    return found


def add(kenning, *args: str) -> str:
    result = kenning("add", *args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)["id"]


def test_add_writes_one_yaml_file_in_the_personal_store_until_init(kenning, repo):
    fid = add(kenning, "Retries live in http/retry.py", "--kind", "decision",
              "--about", "src/http/retry.py:RetryPolicy.backoff", "--tag", "http")
    (path,) = fact_files(repo)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert path.name == f"{fid}.yaml"
    assert data["kind"] == "decision" and data["confidence"] == 1.0
    assert data["about"] == [{"file": "src/http/retry.py", "symbol": "RetryPolicy.backoff"}]
    assert str(current_project(repo).home) in str(path)
    assert git(repo, "status", "--porcelain") == ""


def test_a_project_never_initialised_gets_no_files(kenning, repo):
    add(kenning, "The API listens on port 8080")
    kenning("search", "which port")
    kenning("list")
    kenning("status")
    kenning("rebuild")
    assert git(repo, "status", "--porcelain", "--ignored") == ""


def test_init_creates_the_shared_store_and_moves_codebase_and_decision_facts(kenning, repo):
    add(kenning, "Build with make dist", "--kind", "codebase")
    add(kenning, "The user likes terse answers", "--kind", "interaction")
    result = kenning("init", "--move-facts")
    assert result.code == 0, result.err
    kdir = repo / ".kenning"
    assert (kdir / "README.md").is_file()
    assert "merge=kenning-fact" in (kdir / ".gitattributes").read_text(encoding="utf-8")
    assert "merge-fact" in git(repo, "config", "--get", "merge.kenning-fact.driver")
    assert len(list((kdir / "facts").glob("*.yaml"))) == 1
    assert len(list(current_project(repo).personal_facts_dir.glob("*.yaml"))) == 1
    status = json.loads(kenning("status", "--json").out)
    assert status["not yet committed"] >= 1
    git(repo, "add", ".kenning")
    git(repo, "commit", "-qm", "facts")
    assert json.loads(kenning("status", "--json").out)["not yet committed"] == 0


def test_search_finds_a_fact_and_says_why(kenning, repo):
    add(kenning, "Database migrations run with alembic upgrade head")
    add(kenning, "The frontend is built with vite")
    hits = json.loads(kenning("search", "how do I run migrations", "--json").out)
    assert hits[0]["snippet"].startswith("Database migrations")
    assert hits[0]["type"] == "fact" and hits[0]["kind"] == "codebase"
    assert "keyword #1" in hits[0]["why"]
    # the README's hit shape: a fact without an anchor has no path, lines or symbol
    assert set(hits[0]) == {"type", "id", "kind", "snippet", "confidence", "score", "why"}


def test_a_one_fact_store_says_why_without_a_zero_bm25(kenning, repo):
    # BM25 gives a word every fact holds an idf of about 0: "bm25 0.00" read as no match
    add(kenning, "Run the test suite with make test")
    hits = json.loads(kenning("search", "how do I run the test suite", "--json").out)
    assert "keyword #1 (its words are in most facts)" in hits[0]["why"], hits[0]["why"]
    assert "bm25 0.00" not in hits[0]["why"]


def test_search_filters_by_kind(kenning, repo):
    add(kenning, "Deploys go through the release branch", "--kind", "decision")
    add(kenning, "Deploys are run by make deploy", "--kind", "codebase")
    hits = json.loads(kenning("search", "deploys", "--kind", "decision", "--json").out)
    assert [h["kind"] for h in hits] == ["decision"]


def test_a_query_beginning_with_a_dash_is_a_query(kenning, repo):
    add(kenning, "The --reload-include flag takes glob patterns, not directories")
    add(kenning, "Deploys are run by make deploy")
    quoted = kenning("search", "--type", "fact", "--reload-include globs", "-n", "1", "--json")
    assert quoted.code == 0, quoted.err
    assert json.loads(quoted.out)[0]["snippet"].startswith("The --reload-include flag")
    after = kenning("search", "--json", "--", "--reload-include")
    assert after.code == 0 and json.loads(after.out)[0]["snippet"].startswith("The --reload")
    typo = kenning("search", "--jsno", "deploys")  # a lone unknown option is still an error
    assert typo.code != 0 and "kenning search -- --jsno" in typo.err


def test_a_near_duplicate_reconfirms_instead_of_adding(kenning, repo):
    first = add(kenning, "Use uv, not pip, to install packages", "--origin", "agent")
    result = json.loads(kenning("add", "use uv not pip to install packages", "--origin",
                                "agent", "--json").out)
    assert result == {"id": first, "created": False, "superseded": [], "contradictions": [],
                      "notes": []}
    assert len(fact_files(repo)) == 1
    data = yaml.safe_load(fact_files(repo)[0].read_text(encoding="utf-8"))
    assert data["confidence"] == 0.9


def test_topic_upsert_supersedes_the_old_fact(kenning, repo):
    old = add(kenning, "CI runs on Travis", "--topic", "ci")
    new = add(kenning, "CI runs on GitHub Actions", "--topic", "ci")
    shown = json.loads(kenning("show", old, "--json").out)
    assert shown["status"] == "superseded" and shown["superseded_by"] == new
    hits = json.loads(kenning("search", "where does CI run", "--json").out)
    assert [h["id"] for h in hits] == [new]
    assert new in kenning("show", old).out


def test_edit_sets_confidence_to_one(kenning, repo):
    fid = add(kenning, "Port is 8080", "--origin", "agent")
    assert kenning("edit", fid, "--text", "Port is 9090").code == 0
    shown = json.loads(kenning("show", fid, "--json").out)
    assert shown["text"] == "Port is 9090" and shown["confidence"] == 1.0


def test_forget_leaves_a_tombstone_and_restore_brings_it_back(kenning, repo):
    fid = add(kenning, "The cache is redis")
    assert kenning("forget", fid).code == 0
    assert fact_files(repo), "forget must keep the file as a tombstone"
    assert json.loads(kenning("search", "cache redis", "--json").out) == []
    hits = json.loads(kenning("search", "cache redis", "--status", "forgotten", "--json").out)
    assert [h["id"] for h in hits] == [fid]
    kenning("restore", fid)
    assert [h["id"] for h in json.loads(kenning("search", "redis", "--json").out)] == [fid]


def test_forget_purge_scrubs_file_index_and_logs(kenning, repo):
    secret_word = "zanzibarquokka"
    fid = add(kenning, f"The staging host is {secret_word}.internal")
    kenning("search", secret_word)
    project = current_project(repo)
    assert kenning("forget", fid, "--purge").code == 0
    assert not fact_files(repo)
    leftovers = [p for p in project.data_dir.rglob("*") if p.is_file()
                 and (secret_word.encode() in p.read_bytes() or fid.encode() in p.read_bytes())]
    assert leftovers == []


def test_bad_input_is_one_error_line_exit_one_and_writes_nothing(kenning, repo, tmp_path):
    for args in (["add", "   "], ["add", "x", "--kind", "opinion"], ["show", "NOPE"],
                 ["forget", "01ARZ3NDEKTSV4RRFFQ69G5FAV"], ["add", "x", "--about", "../etc"],
                 ["-C", str(tmp_path / "missing"), "list"], ["edit", "NOPE", "--text", ""]):
        result = kenning(*args)
        assert result.code == 1, args
        lines = result.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), (args, result.err)
    assert fact_files(repo) == []


def test_rebuild_names_bad_files_and_indexes_the_rest(kenning, repo):
    kenning("init")
    ids = [add(kenning, f"Fact number {n} about the billing module") for n in range(3)]
    facts_dir = repo / ".kenning" / "facts"
    corrupt = facts_dir / f"{new_ulid()}.yaml"
    corrupt.write_text("format: 1\nid: [unclosed\n", encoding="utf-8")
    conflicted = facts_dir / f"{ids[1]}.yaml"
    text = conflicted.read_text(encoding="utf-8")
    conflicted.write_text(f"<<<<<<< HEAD\n{text}=======\n{text}>>>>>>> other\n", "utf-8")
    result = kenning("rebuild")
    assert result.code == 0
    assert corrupt.name in result.err and conflicted.name in result.err
    listed = kenning("list").out
    assert ids[2] in listed and ids[0] in listed and ids[1] not in listed
    assert corrupt.stem not in listed


def test_a_newer_format_is_read_but_never_rewritten(kenning, repo):
    fid = add(kenning, "Fact from the future")
    path = fact_files(repo)[0]
    path.write_text(path.read_text(encoding="utf-8").replace("format: 1", "format: 2"), "utf-8")
    before = path.read_bytes()
    assert fid in kenning("list").out
    result = kenning("forget", fid)
    assert result.code == 1 and "format 2" in result.err
    assert path.read_bytes() == before


def test_facts_arriving_by_git_pull_are_searchable_at_once(kenning, repo, tmp_path):
    kenning("init")
    git(repo, "add", ".kenning")
    git(repo, "commit", "-qm", "init kenning")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(repo), str(other))
    kenning("-C", str(other), "add", "Payments use Stripe idempotency keys")
    git(other, "add", ".kenning")
    git(other, "-c", "user.email=a@b", "-c", "user.name=A", "commit", "-qm", "fact")
    assert json.loads(kenning("search", "stripe", "--json").out) == []
    git(repo, "pull", "-q", str(other), "main")
    hits = json.loads(kenning("search", "stripe idempotency", "--json").out)
    assert len(hits) == 1


def test_secrets_never_reach_the_fact_file(kenning, repo):
    add(kenning, "Deploy key is AKIAIOSFODNN7EXAMPLE for the bucket")
    text = fact_files(repo)[0].read_text(encoding="utf-8")
    assert "AKIAIOSFODNN7EXAMPLE" not in text and "[REDACTED:" in text


def test_add_reports_a_contradiction_at_write_time(kenning, repo):
    first = add(kenning, "Always run the linter before committing")
    result = kenning("add", "Never run the linter before committing")
    assert result.code == 0
    assert f"contradicts {first}" in result.out


def test_each_command_is_found_in_the_module_the_lazy_group_imports_for_it():
    import click

    from kenning.cli.app import COMMAND_MODULES, cli, load_commands

    load_commands()
    owners = {name: module for module, names in COMMAND_MODULES.items() for name in names}
    assert set(cli.commands) == set(owners)
    for name, command in cli.commands.items():
        assert command.callback.__module__ == f"kenning.cli.{owners[name]}", name
    assert isinstance(cli.commands["graph"], click.Group)


def test_kenning_index_imports_no_other_command_module(repo):
    import subprocess
    import sys

    probe = ("import sys\nfrom kenning.cli import main\n"
             "try:\n    main(['index', '--json'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('kenning.cli.')))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[-1] == "['kenning.cli.admin', 'kenning.cli.app']"
