"""The fact file format: round trips, validation naming file and field, atomic writes."""

from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from kenning.core.errors import FactFileError
from kenning.core.ids import is_ulid, new_ulid
from kenning.core.records import Anchor, Fact, Source
from kenning.store.factfile import KEY_ORDER, parse_fact, read_fact_file, render_fact

NOW = datetime(2026, 11, 29, 14, 3, 11, tzinfo=UTC)


def make_fact(**changes) -> Fact:
    base = dict(
        id=new_ulid(), kind="decision", text="Retries live in http/retry.py.", created=NOW,
        confirmed=NOW, confidence=70, rationale="Transports drifted apart.",
        about=(Anchor("src/http/retry.py", "RetryPolicy.backoff", "9f2c41d07a3b"),),
        tags=("http", "retries"), topic="http-retries",
        source=Source("transcript", "sess-1", "uuid-1", "decision-marker"),
    )
    base.update(changes)
    return Fact(**base)


def test_rendered_file_has_the_design_key_order_and_two_decimal_confidence():
    text = render_fact(make_fact())
    keys = [line.split(":")[0] for line in text.splitlines() if line and line[0] != " "
            and not line.startswith("-")]
    assert keys == [k for k in KEY_ORDER if k in keys]
    assert "confidence: 0.70" in text
    assert "created: 2026-11-29T14:03:11Z" in text
    assert "&id" not in text and "*id" not in text


def test_round_trip_preserves_every_field():
    fact = make_fact()
    assert parse_fact(render_fact(fact), "x.yaml") == fact


def test_unknown_keys_survive_a_rewrite():
    fact = make_fact()
    data = yaml.safe_load(render_fact(fact))
    data["reviewed_by"] = "ana"
    again = parse_fact(yaml.safe_dump(data, sort_keys=False), "x.yaml")
    assert "reviewed_by: ana" in render_fact(again)


@pytest.mark.parametrize(
    ("field", "value"),
    [("kind", "opinion"), ("text", ""), ("confidence", 1.5), ("id", "not-an-id"),
     ("status", "gone"), ("created", "yesterday"), ("about", "src/x.py")],
)
def test_validation_names_the_field(field, value):
    data = yaml.safe_load(render_fact(make_fact()))
    data[field] = value
    with pytest.raises(FactFileError) as info:
        parse_fact(yaml.safe_dump(data), "facts/x.yaml")
    assert info.value.field.startswith(field)
    assert "facts/x.yaml" in str(info.value)


def test_anchor_paths_must_stay_inside_the_project():
    data = yaml.safe_load(render_fact(make_fact()))
    data["about"] = [{"file": "../../etc/passwd"}]
    with pytest.raises(FactFileError, match="inside the project"):
        parse_fact(yaml.safe_dump(data), "x.yaml")


def test_windows_anchor_paths_are_stored_as_posix():
    data = yaml.safe_load(render_fact(make_fact()))
    data["about"] = [{"file": "src\\http\\retry.py"}]
    assert parse_fact(yaml.safe_dump(data), "x.yaml").about[0].file == "src/http/retry.py"


def test_conflict_markers_are_reported():
    text = "<<<<<<< ours\n" + render_fact(make_fact()) + "=======\nx\n>>>>>>> theirs\n"
    with pytest.raises(FactFileError, match="conflict markers"):
        parse_fact(text, "x.yaml")


def test_yaml_tags_and_oversized_files_are_refused(tmp_path: Path):
    with pytest.raises(FactFileError):
        parse_fact("!!python/object/apply:os.system ['echo hi']\n", "x.yaml")
    big = tmp_path / f"{new_ulid()}.yaml"
    big.write_text(render_fact(make_fact(text="x" * 70_000)), encoding="utf-8")
    with pytest.raises(FactFileError, match="larger than"):
        read_fact_file(big)


def test_file_name_must_match_the_id(tmp_path: Path):
    path = tmp_path / f"{new_ulid()}.yaml"
    path.write_text(render_fact(make_fact()), encoding="utf-8")
    with pytest.raises(FactFileError, match="file name"):
        read_fact_file(path)


def test_ulids_are_unique_and_sorted_by_time():
    ids = [new_ulid() for _ in range(1000)]
    assert len(set(ids)) == 1000
    assert ids == sorted(ids)
    assert all(is_ulid(i) for i in ids)


@example("line\x85break\u2028and\u2029more", [])
@given(st.text(min_size=1, max_size=200).filter(lambda s: s.strip()),
       st.lists(st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True), max_size=5))
def test_any_text_and_tags_round_trip(text, tags):
    fact = make_fact(text=text, tags=tuple(tags))
    assert parse_fact(render_fact(fact), "x.yaml") == fact
