"""The CLI as a new user meets it: `papers` with filters and whole ids, `--version`, help with a word
and a readable placeholder for every option, one-line errors when the port is taken, and `serve`
(with the CLI finding it) on a PostgreSQL library."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time

import httpx
import pytest

from papershelf import Library
from papershelf.frontends import client

from . import pg
from .conftest import EXAMPLES, HASH
from .servers import cli_env
from .test_cli import run
from .zotero_fixture import build_library

COMMANDS = ["add", "embed", "index", "watch", "search", "status", "verify", "migrate", "show", "remove", "papers",
            "serve", "mcp", "bench beir"]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("usability")
    db = folder / "lib.db"
    with Library(str(db)) as lib:
        lib.add([str(EXAMPLES), str(build_library(folder / "Zotero"))])
    return db


def test_papers_filters_whole_ids_and_n_of_total(labelled):
    everything = json.loads(run(labelled, "papers", "--json").stdout)
    assert len(everything) == 6
    by_author = json.loads(run(labelled, "papers", "--author", "OKAFOR", "--json").stdout)
    assert {p["id"] for p in by_author} == {"JOUR1", "okafor2021", "okafor2024il6"}
    assert [p["id"] for p in json.loads(run(labelled, "papers", "--tag", "to read", "--collection", "biology",
                                            "--json").stdout)] == ["JOUR1"]
    years = json.loads(run(labelled, "papers", "--year-from", "2020", "--year-to", "2022", "--json").stdout)
    assert years and all(2020 <= p["year"] <= 2022 for p in years)
    coral = json.loads(run(labelled, "papers", "--title", "CORAL", "--json").stdout)
    assert {p["id"] for p in coral} == {"okafor2021", "mbeki2022coral"}

    env = dict(os.environ, PAPERSHELF_LIBRARY=str(labelled), COLUMNS="40")  # a narrow terminal
    table = subprocess.run([sys.executable, "-m", "papershelf", "papers", "-n", "2"], env=env, capture_output=True,
                           text=True, timeout=120, check=True).stdout
    assert table.rstrip().endswith("2 of 6 papers")
    assert all(p["id"] in table for p in everything[:2])  # never cut, whatever the width
    wide = subprocess.run([sys.executable, "-m", "papershelf", "papers"], env=dict(env, COLUMNS="100"),
                          capture_output=True, text=True, timeout=120, check=True).stdout
    has_chunks = any(p["units"]["chunk"] for p in everything)
    assert ("chunks" in wide.splitlines()[0]) == has_chunks  # the column only for Zotero full text
    ids = run(labelled, "papers", "--format", "ids").stdout.split()
    assert ids == [p["id"] for p in everything]
    tsv = run(labelled, "papers", "--format", "tsv", "--author", "brandt").stdout.splitlines()
    assert tsv[0] == "JOUR1\t2021\tTrans-Signalling Keeps Wound Macrophages Inflammatory" and len(tsv) == 2
    bad = run(labelled, "papers", "--year-from", "soon", ok=(2,)).stderr
    assert len(bad.strip().splitlines()) >= 1 and "Traceback" not in bad
    assert "--limit" in run(labelled, "papers", "--limit", "0", ok=(2,)).stderr


def test_version_and_help_with_a_word_and_a_readable_placeholder_for_every_option(tmp_path):
    version = run(tmp_path / "x.db", "--version").stdout.strip()
    assert re.fullmatch(r"papershelf \S+", version)
    for command in COMMANDS:
        text = run(tmp_path / "x.db", *command.split(), "--help").stdout
        assert "<" not in text.split("Options:")[0].split("Usage:")[1] and "{" not in text, (command, text)
        assert "list[str]" not in text and "<str>" not in text and "<int" not in text, (command, text)
        options = re.findall(r"^  (-\S+(?:, --\S+)?)(?: (\S+))?(?:\s{2,}(.*))?$", text.split("Options:")[1], re.M)
        for flag, _metavar, help_text in options:
            assert help_text.strip(), (command, flag, text)


def test_a_busy_port_is_one_line_and_exit_1(tmp_path):
    db = tmp_path / "lib.db"
    Library(str(db)).close()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        p = run(db, "serve", "--port", str(port), ok=(1,))
        assert p.stderr.strip().count("\n") == 0 and f"cannot listen on 127.0.0.1:{port}" in p.stderr
        assert "port is in use" in p.stderr
        other = run(db, "serve", "--host", "203.0.113.9", "--token", "t", "--port", "0", ok=(1,)).stderr
        assert other.strip().count("\n") == 0 and "cannot listen on 203.0.113.9:0" in other
    finally:
        taken.close()
    assert not os.path.exists(client.discovery_path(str(db)))


def test_serve_and_discovery_on_a_postgresql_library(tmp_path):
    location = pg.fresh_database()
    try:
        with Library(location) as lib:
            lib.add([str(EXAMPLES)])
            lib.embed(HASH)
        proc = subprocess.Popen([sys.executable, "-m", "papershelf", "-L", location, "serve", "--port", "0",
                                 "--stop-after", "120"], env=cli_env(), stderr=subprocess.PIPE, text=True)
        try:
            path = client.discovery_path(location)
            deadline = time.monotonic() + 60
            while not os.path.exists(path):
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.05)
            info = client.find_server(location)
            assert info is not None and ":" not in info.library.split("@")[0].split("//")[1]  # no password kept
            health = httpx.get(f"{info.url}/api/health").json()
            assert health["library"] == client.library_name(location)
            env = dict(cli_env(), PAPERSHELF_LIBRARY=location)
            via = subprocess.run([sys.executable, "-m", "papershelf", "search", "bleaching", "--json"], env=env,
                                 capture_output=True, text=True, timeout=120, check=True).stdout
            local = subprocess.run([sys.executable, "-m", "papershelf", "search", "bleaching", "--json",
                                    "--no-server"], env=env, capture_output=True, text=True, timeout=120,
                                   check=True).stdout
            strip = lambda s: {k: v for k, v in json.loads(s).items() if k != "timings_ms"}  # noqa: E731
            assert strip(via) == strip(local) and strip(via)["results"]
        finally:
            proc.terminate()
            proc.wait(15)
        assert not os.path.exists(client.discovery_path(location))
    finally:
        pg.drop_database(location)


def test_library_name_drops_the_password():
    assert client.library_name("postgresql://me:secret@db.local:5433/papers") == "postgresql://me@db.local:5433/papers"
    assert client.library_name("postgresql:///papers?host=/tmp") == "postgresql:///papers?host=/tmp"
    assert client.discovery_path("postgresql://me:secret@h/p") == client.discovery_path("postgresql://me:other@h/p")
