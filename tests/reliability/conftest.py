import pytest

from papershelf.embed.openai import reset_health


@pytest.fixture(autouse=True)
def _own_health_file(tmp_path, monkeypatch):
    """Each test remembers provider failures in its own file (CLI subprocesses inherit the variable)."""
    monkeypatch.setenv("PAPERSHELF_PROVIDER_HEALTH", str(tmp_path / "health.json"))
    reset_health()
