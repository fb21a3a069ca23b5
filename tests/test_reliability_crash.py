"""Scenario 2: `kill -9` at random points during fact writes, `rebuild`, `index`, extraction
and the runtime install. After every kill: no partial YAML file, no acknowledged write lost,
the index intact (or rebuilt by the next use, with its notice), and the next run completes.

Kill counts are the defaults; `KENNING_RELIABILITY_SCALE` multiplies them (and the seeds are
fixed per kill, so a failure names the kill that found it).
"""

from __future__ import annotations

import json
import random
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from kenning.core.errors import FactFileError
from kenning.core.paths import current_project
from kenning.memory import Memory
from kenning.store.factfile import read_fact_file
from kenning.store.facts import iter_fact_paths
from kenning.store.projectinit import init_project
from reliability import (
    SRC,
    Transcript,
    integrity,
    kill9,
    report,
    scale,
    scaled,
    spawn,
    statements,
    wait_for_line,
    words,
)

pytestmark = pytest.mark.slow
KILLS: dict[str, int] = {}


def _yaml_files(project) -> list[Path]:
    return [p for _, d in project.fact_dirs() for p in iter_fact_paths(d)]


def _temp_files(project) -> list[Path]:
    return [p for _, d in project.fact_dirs() if d.is_dir() for p in d.iterdir()
            if p.name.startswith(".")]


def _every_yaml_parses(project) -> dict[str, object]:
    facts = {}
    for path in _yaml_files(project):
        try:
            fact = read_fact_file(path)
        except FactFileError as exc:  # a partial file would land here
            raise AssertionError(f"partial or invalid fact file after a kill: {exc}") from exc
        facts[fact.id] = fact
    return facts


def _index_follows_yaml(project, capfd) -> bool:
    """The next use: the index is intact or rebuilt (with its notice); it holds every fact.
    Returns whether it had to be rebuilt."""
    state = integrity(project.index_path) if project.index_path.exists() else "ok"
    memory = Memory(project, embedder_name="fake")
    try:
        indexed = {v.row.id for v in memory.facts()}
    finally:
        memory.close()
    notice = "rebuilding it" in capfd.readouterr().err
    assert state == "ok" or notice, state
    yaml_ids = {p.stem for p in _yaml_files(project)}
    assert indexed == yaml_ids
    return notice


# ---- fact writes -----------------------------------------------------------------------------
WRITER = r"""
import os, random, sys
from kenning.memory import Memory
from kenning.core.paths import current_project
ack = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
seed = int(sys.argv[2])
rng = random.Random(seed)
memory = Memory(current_project(), embedder_name="fake")
mine = [line.split()[1] for line in open(sys.argv[1]) if line.startswith("add ")]
os.write(ack, b"ready\n")
n = seed * 1000
while True:
    n += 1
    op = rng.random()
    if op < 0.55 or not mine:
        kind = rng.choice(["codebase", "decision", "interaction"])
        fact = memory.add(f"Crash note {n} keeps the {sys.argv[3]} words {n} apart.", kind,
                          origin="agent")
        mine.append(fact.fact.id)
        os.write(ack, f"add {fact.fact.id}\n".encode())
    elif op < 0.85:
        fid = rng.choice(mine)
        memory.edit(fid, text=f"Crash note {fid[-6:]} revised to revision {n} of many.")
        os.write(ack, f"edit {fid} {n}\n".encode())
    elif op < 0.95:
        fid = rng.choice(mine)
        memory.forget(fid)
        memory.restore(fid)
        os.write(ack, f"toggle {fid}\n".encode())
    else:
        memory.sync()
"""


def _acked(path: Path) -> tuple[set[str], dict[str, int]]:
    added: set[str] = set()
    revisions: dict[str, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if parts[0] == "add":
            added.add(parts[1])
        elif parts[0] == "edit":
            revisions[parts[1]] = int(parts[2])
    return added, revisions


def test_kill_9_during_fact_writes_loses_no_acknowledged_fact(repo, capfd):
    project = current_project(repo)
    init_project(project, move_facts=False)
    ack = repo.parent / "acks.log"
    kills = scaled(24)
    rebuilt = 0
    for k in range(kills):
        proc = spawn(WRITER, str(ack), str(k + 1), words(k), cwd=repo)
        wait_for_line(proc, ack, "ready", timeout=60)
        time.sleep(random.Random(k).uniform(0.0, 0.6))
        assert proc.poll() is None, proc.stderr.read().decode()
        kill9(proc)
        facts = _every_yaml_parses(project)
        added, revisions = _acked(ack)
        assert added <= set(facts), f"kill {k}: acknowledged facts lost"
        for fid, revision in revisions.items():
            found = int(facts[fid].text.split("revision ")[1].split()[0])
            assert found >= revision, f"kill {k}: edit {revision} of {fid} lost"
        rebuilt += _index_follows_yaml(project, capfd)
    KILLS["fact writes"] = kills
    report("kill -9 during fact writes", kills=kills, facts=len(_yaml_files(project)),
           acked_adds=len(_acked(ack)[0]), acked_edits=len(_acked(ack)[1]),
           index_rebuilds=rebuilt, temp_files_left=len(_temp_files(project)))


def test_leftover_temp_files_of_a_killed_write_are_invisible(repo, kenning):
    """A kill between the temp file and the rename leaves `.ID.yaml.XXXX.tmp`: no reader
    takes it for a fact, and git does not offer it for commit."""
    assert kenning("init", "--no-move-facts").code == 0
    fid = json.loads(kenning("add", "Builds run through make.", "--json").out)["id"]
    facts_dir = repo / ".kenning" / "facts"
    (facts_dir / f".{fid}.yaml.k2j3h4.tmp").write_text("format: 1\nid: 01", encoding="utf-8")
    assert [v["id"] for v in json.loads(kenning("list", "--json").out)] == [fid]
    assert kenning("rebuild").err == ""
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=repo, capture_output=True, text=True).stdout
    assert ".tmp" not in status, status


# ---- rebuild ---------------------------------------------------------------------------------
REBUILDER = r"""
import os, sys
from kenning.memory import Memory
from kenning.core.paths import current_project
ready = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
memory = Memory(current_project(), embedder_name="fake")
memory.embedder()
os.write(ready, b"ready\n")
while True:
    memory.rebuild()
    memory.close()
"""


def _seed_facts(project, count: int) -> list[str]:
    memory = Memory(project, embedder_name="fake")
    ids = [memory.store.create(f"Seeded fact {n} about the {words(n)} service number {n}.",
                               "codebase").id for n in range(count)]
    memory.sync()
    memory.close()
    return ids


def test_kill_9_during_rebuild_leaves_an_index_the_next_use_repairs(repo, capfd):
    project = current_project(repo)
    ids = _seed_facts(project, 300)
    flag = repo.parent / "ready.log"
    start = time.monotonic()
    Memory(project, embedder_name="fake").rebuild()
    one = time.monotonic() - start
    kills = scaled(10)
    rebuilt = 0
    for k in range(kills):
        proc = spawn(REBUILDER, str(flag), cwd=repo)
        wait_for_line(proc, flag, "ready", timeout=60)
        flag.write_text("", encoding="utf-8")
        time.sleep(random.Random(100 + k).uniform(0.0, one * 1.5))
        kill9(proc)
        rebuilt += _index_follows_yaml(project, capfd)
        memory = Memory(project, embedder_name="fake")
        hits = memory.search_facts("service number 123", record=None)
        memory.close()
        assert ids[123] in [h.id for h in hits]
    KILLS["rebuild"] = kills
    report("kill -9 during rebuild", kills=kills, facts=len(ids),
           rebuild_seconds=round(one, 2), index_rebuilt_on_next_use=rebuilt)


# ---- index -----------------------------------------------------------------------------------
INDEXER = r"""
import os, sys
from kenning.memory import Memory
from kenning.core.paths import current_project
ready = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
memory = Memory(current_project(), embedder_name="fake")
memory.embedder()
import kenning.index.chunking
os.write(ready, b"ready\n")
while True:
    memory.index_code(full=True)
"""


def _source_tree(root: Path, files: int) -> None:
    for n in range(files):
        folder = root / "pkg" / f"mod{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(
            f"def handler_{n}_{j}(request, retries={j}):\n"
            f"    \"\"\"Handle {words(n * 31 + j)} requests.\"\"\"\n"
            f"    return request.get('{words(j)}', retries) + {j}\n\n\n"
            for j in range(12))
        (folder / f"file_{n}.py").write_text(f"class Service{n}:\n    pass\n\n\n{body}",
                                            encoding="utf-8")
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "guide.md").write_text(
        "".join(f"# Part {n}\n\nThe {words(n)} part explains step {n}.\n\n" for n in range(40)),
        encoding="utf-8")


def _code_state(conn) -> dict[str, tuple[int, int]]:
    chunks = dict(conn.execute("SELECT path, count(*) FROM chunks GROUP BY path").fetchall())
    symbols = dict(conn.execute("SELECT path, count(*) FROM symbols GROUP BY path").fetchall())
    files = [r[0] for r in conn.execute("SELECT path FROM files")]
    vectors = conn.execute("SELECT count(*) FROM chunks c LEFT JOIN chunk_vectors v "
                           "ON v.chunk_id = c.id WHERE v.chunk_id IS NULL").fetchone()[0]
    assert vectors == 0, "chunks without vectors"
    assert set(chunks) <= set(files), "chunks of a file the index does not list"
    return {p: (chunks.get(p, 0), symbols.get(p, 0)) for p in files}


def test_kill_9_during_index_never_leaves_a_half_indexed_file(repo, capfd):
    _source_tree(repo, 120)
    project = current_project(repo)
    memory = Memory(project, embedder_name="fake")
    start = time.monotonic()
    memory.index_code(full=True)
    one = time.monotonic() - start
    reference = _code_state(memory.index.conn)
    memory.close()
    flag = repo.parent / "ready.log"
    kills = scaled(10)
    rebuilt = 0
    for k in range(kills):
        if k % 3 == 0:  # a fresh index too, so kills land in its creation and migration
            from kenning.index.db import discard

            discard(project.index_path)
        proc = spawn(INDEXER, str(flag), cwd=repo)
        wait_for_line(proc, flag, "ready", timeout=60)
        flag.write_text("", encoding="utf-8")
        time.sleep(random.Random(200 + k).uniform(0.0, one * 1.2))
        kill9(proc)
        state = integrity(project.index_path)
        memory = Memory(project, embedder_name="fake")
        try:
            memory.index_code()  # the next (incremental) run completes the work
            after = _code_state(memory.index.conn)
        finally:
            memory.close()
        rebuilt += "rebuilding it" in capfd.readouterr().err
        assert state == "ok" or rebuilt, state
        assert after == reference, f"kill {k}: the index differs from a clean one"
    KILLS["index"] = kills
    report("kill -9 during index", kills=kills, files=len(reference),
           chunks=sum(c for c, _ in reference.values()), index_seconds=round(one, 2),
           index_rebuilt_on_next_use=rebuilt)


# ---- extraction ------------------------------------------------------------------------------
EXTRACTOR = r"""
import os, sys
ready = os.open(sys.argv[2], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
from kenning.cli import main
import kenning.extract.pipeline, kenning.memory, kenning.index.sync, kenning.index.embed
os.write(ready, b"ready\n")
main(["extract", sys.argv[1], "--settle", "0"])
"""


def test_kill_9_during_extraction_then_a_rerun_adds_each_fact_exactly_once(repo, tmp_path,
                                                                           capfd):
    from kenning.cli import main

    project = current_project(repo)
    per_session = 60
    transcripts = scaled(4)
    flag = tmp_path / "ready.log"
    killed_mid_run = 0
    for k in range(transcripts):
        session = f"{k:08d}-8b1f-4d0e-9a51-0c7f3e2b9d44"
        t = Transcript(tmp_path / "transcripts" / f"{session}.jsonl", session=session)
        statements(t, per_session, start=k * 1000)
        # two kills per transcript at random points, then a run that must finish
        for j in range(2):
            proc = spawn(EXTRACTOR, str(t.path), str(flag), cwd=repo)
            wait_for_line(proc, flag, "ready", timeout=60)
            flag.write_text("", encoding="utf-8")
            time.sleep(random.Random(300 + k * 2 + j).uniform(0.0, 0.8))
            killed_mid_run += proc.poll() is None
            kill9(proc)
            _every_yaml_parses(project)
        with pytest.raises(SystemExit) as done:
            main(["extract", str(t.path), "--settle", "0"])
            raise SystemExit(0)
        assert done.value.code == 0, capfd.readouterr().err
    facts = _every_yaml_parses(project)
    texts = sorted(f.text for f in facts.values())
    assert len(texts) == len(set(texts)) == transcripts * per_session, "a fact lost or doubled"
    by_session: dict[str, int] = {}
    for fact in facts.values():
        by_session[fact.source.session] = by_session.get(fact.source.session, 0) + 1
        # evidence read twice is still one piece of evidence: no re-confirmation by a rerun
        assert fact.confidence == 70, (fact.id, fact.confidence)
    assert set(by_session.values()) == {per_session}
    _index_follows_yaml(project, capfd)
    KILLS["extraction"] = killed_mid_run
    report("kill -9 during extraction", kills=killed_mid_run, tries=transcripts * 2,
           transcripts=transcripts, facts=len(facts))


# ---- runtime install -------------------------------------------------------------------------
def _wheel(folder: Path, name: str, version: str) -> Path:
    """A tiny pure-Python wheel, dist-info last as the wheel spec asks."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{version}-py3-none-any.whl"
    dist = f"{name}-{version}.dist-info"
    files = {f"{name}/__init__.py": f"VERSION = {version!r}\n" + "# padding\n" * 2000}
    files.update({f"{name}/part{n}.py": f"X = {n}\n" + "# padding\n" * 500 for n in range(40)})
    files[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    files[f"{dist}/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: kenning-tests\n"
                              "Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{dist}/RECORD"] = "".join(f"{p},,\n" for p in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
    return path


def _plugin_root(root: Path, deps: list[str]) -> Path:
    (root / ".claude-plugin").mkdir(parents=True, exist_ok=True)
    (root / ".claude-plugin" / "plugin.json").write_text('{"name": "kenning", "version": "9.9.9"}',
                                                        encoding="utf-8")
    quoted = ", ".join(f'"{d}"' for d in deps)
    (root / "pyproject.toml").write_text(f'[project]\nname = "x"\ndependencies = [{quoted}]\n',
                                         encoding="utf-8")
    return root


INSTALLER = r"""
import sys
sys.path.insert(0, sys.argv[1])
from kenning.plugin.install import install
print(install(data=sys.argv[2], root=sys.argv[3]), flush=True)
"""


def _install(data: Path, root: Path, env: dict) -> subprocess.Popen:
    return spawn(INSTALLER, str(SRC), str(data), str(root), env=env, stdout=subprocess.PIPE)


def _importable(data: Path) -> bool:
    from kenning.plugin.layout import venv_python

    python = venv_python(str(data))
    return subprocess.run([python, "-c", "import kfakedep.part39; print(kfakedep.VERSION)"],
                          capture_output=True, text=True).stdout.strip()


def test_kill_9_during_the_runtime_install_then_the_next_install_completes(tmp_path,
                                                                          monkeypatch):
    import shutil

    from kenning.plugin import runtime

    monkeypatch.setattr(runtime, "dev_python", lambda root=None: None)
    wheels = tmp_path / "wheels"
    _wheel(wheels, "kfakedep", "1.0")
    root = _plugin_root(tmp_path / "plugin", ["kfakedep==1.0"])
    env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels), "PIP_NO_CACHE_DIR": "1"}
    data = tmp_path / "data"
    # One clean install measures how long the kills may wait.
    start = time.monotonic()
    proc = _install(data, root, env)
    out, err = proc.communicate(timeout=300)
    clean = time.monotonic() - start
    assert out.decode().split()[-1:] == ["ready"], err.decode()
    assert runtime.state(str(data), str(root)) == "ready" and _importable(data) == "1.0"
    kills = scaled(6)
    killed = 0
    states = []
    upgrade = False
    _wheel(wheels, "kfakedep", "2.0")
    shutil.rmtree(data)
    for k in range(kills):
        if k == kills // 2:  # the second half interrupts an upgrade of a finished venv
            proc = _install(data, root, env)
            out, err = proc.communicate(timeout=300)
            assert out.decode().split()[-1:] == ["ready"], err.decode()
            _plugin_root(root, ["kfakedep==2.0"])  # a plugin update: the venv is stale
            assert runtime.state(str(data), str(root)) == "stale"
            upgrade = True
        proc = _install(data, root, env)
        if upgrade:  # pip alone runs: kill early
            upgrade = False
            time.sleep(random.Random(400 + k).uniform(0.3, 1.0))
        else:
            time.sleep(random.Random(400 + k).uniform(0.05, clean * 0.9))
        if proc.poll() is not None:  # finished first: then it must have finished the job
            out, err = proc.communicate()
            assert out.decode().split()[-1:] == ["ready"], (k, out, err.decode()[-2000:])
            states.append("ready")
            continue
        kill9(proc)
        killed += 1
        state = runtime.state(str(data), str(root))
        if state == "ready":  # the kill landed after the stamp, as the installer was exiting
            wanted = "1.0" if k < kills // 2 else "2.0"
            assert _importable(data) == wanted, "ready, but the venv is half-built"
        else:
            assert state in ("missing", "stale"), state
        states.append(state)
    proc = _install(data, root, env)
    out, err = proc.communicate(timeout=300)
    assert out.decode().split()[-1:] == ["ready"], err.decode()
    assert runtime.state(str(data), str(root)) == "ready"
    assert _importable(data) == "2.0", "the venv says ready but its dependency is wrong"
    KILLS["install"] = killed
    report("kill -9 during the runtime install", kills=killed, tries=kills,
           clean_install_seconds=round(clean, 1), states_after_kill=states)


def test_at_least_fifty_kills_in_total():
    """Runs last in this file: the issue asks for 50 kills or more across the scenarios."""
    if len(KILLS) < 5 or scale() < 1:
        pytest.skip("the total counts at scale 1 or more, over the whole file")
    assert sum(KILLS.values()) >= 50, KILLS
    report("kill -9 total", kills=sum(KILLS.values()), by_target=KILLS)

