"""Configuration files: user and project, with clear errors."""

import pytest

from kenning.core.config import load_config
from kenning.core.errors import KenningError
from kenning.core.paths import current_project


def write_user_config(text: str):
    project = current_project()
    project.home.mkdir(parents=True, exist_ok=True)
    (project.home / "config.toml").write_text(text, encoding="utf-8")
    return project


def test_llm_accepts_the_short_form_and_the_table(isolated):
    assert load_config(write_user_config('llm = "anthropic"\n')).llm == {"provider": "anthropic"}
    table = load_config(write_user_config('[llm]\nprovider = "openai-compatible"\n')).llm
    assert table == {"provider": "openai-compatible"}


def test_a_committed_project_config_cannot_switch_on_the_llm(isolated, kenning):
    kenning("init")
    (isolated / ".kenning" / "config.toml").write_text('[llm]\nprovider = "anthropic"\n',
                                                       encoding="utf-8")
    assert load_config(current_project()).llm == {}


def test_a_broken_config_file_is_one_clear_error(isolated, kenning):
    write_user_config("embedder = [unclosed\n")
    with pytest.raises(KenningError, match="config.toml"):
        load_config(current_project())
    result = kenning("search", "x")
    assert result.code == 1 and result.err.startswith("Error: ")


def test_extract_findings_takes_durable_off_or_a_boolean(isolated):
    assert load_config(current_project()).findings == "durable"
    assert load_config(write_user_config("[extract]\nfindings = false\n")).findings == "off"
    assert load_config(write_user_config("[extract]\nfindings = true\n")).findings == "durable"
    with pytest.raises(KenningError, match="findings"):
        load_config(write_user_config('[extract]\nfindings = "all"\n'))
