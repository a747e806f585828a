"""`make scan`'s own rules (README, "Attack and crash tests"): the scanners talk only to loopback,
and wapiti loads only the modules the scan names.

Nothing is scanned and nothing is connected to. scan.py builds its wapiti and sqlmap command lines
with `subprocess.run` replaced, so they can be read. Then run_wapiti.py runs in Debian's Python
(where wapiti lives) with the scan's own arguments, as `make scan` runs it, but with the network
replaced by a recorder that answers every request with an empty 204: wapiti signs in, crawls and
attacks nothing, which shows which modules it loaded and where it sent its requests; and requests
to loopback and to other hosts go through the same patched library.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from support import REPO_ROOT

ATTACK = REPO_ROOT / "Tests" / "attack"
sys.path.insert(0, str(ATTACK))
import scan  # noqa: E402  (Tests/attack is not a package)

PORT = 18080  # nothing listens there and nothing connects: the commands are read, the network recorded
SERVER_URL = f"http://127.0.0.1:{PORT}"

# Addresses that are this machine, and others, among them spellings that merely start like loopback.
LOOPBACK_URLS = [f"{SERVER_URL}/lists", f"http://localhost:{PORT}/", f"http://[::1]:{PORT}/", "http://127.8.9.10/"]
OTHER_URLS = [
    "http://192.0.2.1/", "https://example.com/", "http://127.0.0.1.nip.io/", "http://localhost.example.com/",
    "http://[2001:db8::1]/", "https://raw.githubusercontent.com/wapiti-scanner/wappalyzer/main/src/technologies/a.json",
]


class FakeServer:
    base_url = SERVER_URL
    port = PORT


def commands_of(call, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The command lines `call` hands to subprocess.run, which runs none of them: for wapiti it
    writes the report and the log line a signed-in run leaves."""
    commands: list[list[str]] = []

    def record(command, *args, stdout=None, **kwargs):
        commands.append([str(part) for part in command])
        if "--output" in command:
            Path(command[command.index("--output") + 1]).write_text("{}")
            stdout.write("Login success\n")
        return subprocess.CompletedProcess(command, 0)

    with monkeypatch.context() as patched:  # subprocess.run is everyone's: put it back at once
        patched.setattr(scan.subprocess, "run", record)
        call()
    return commands


def option_values(command: list[str], *names: str) -> list[str]:
    return [command[i + 1] for i, part in enumerate(command[:-1]) if part in names]


def wapiti_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """wapiti's command line signed in over a folder, as the main crawl runs it, and signed out
    over one page, as the scans of the one-time links run it."""
    return commands_of(lambda: [
        scan.run_wapiti("signed-in", FakeServer(), "/", starts=["/lists", "/wishlist/1"], excludes=["/logout"],
                        agent="test", reports=tmp_path, deadline=60),
        scan.run_wapiti("signed-out", FakeServer(), "/reset/token", starts=[], excludes=[], agent="test",
                        reports=tmp_path, deadline=60, signed_in=False, scope="page"),
    ], monkeypatch)


def test_wapiti_is_pointed_at_loopback_within_the_start_folder_with_the_named_modules(tmp_path: Path, monkeypatch) -> None:
    for command in wapiti_commands(tmp_path, monkeypatch):
        assert command[:2] == [scan.DEBIAN_PYTHON, str(ATTACK / "run_wapiti.py")], "wapiti runs only through run_wapiti.py"
        urls = option_values(command, "--url", "-u", "--start", "-s", "--exclude", "-x")
        assert urls and all(urlsplit(url).hostname == "127.0.0.1" for url in urls), urls
        # "domain" and "punk" let the crawl leave the start address's folder, punk for any host.
        assert option_values(command, "--scope") in (["folder"], ["page"], ["url"]), command
        assert option_values(command, "--module", "-m") == [scan.WAPITI_MODULES], command
        assert not set(command) & {"--proxy", "-p", "--tor", "--external-endpoint", "--endpoint"}, command


def test_sqlmap_is_pointed_at_loopback_and_its_scope_keeps_it_there(tmp_path: Path, monkeypatch) -> None:
    outcome = scan.Outcome()
    (command,) = commands_of(lambda: scan.run_sqlmap("sqlmap", FakeServer(), ["/lists", "/settings"], tmp_path, outcome,
                                                     session="cookie"), monkeypatch)
    targets = Path(option_values(command, "-m")[0]).read_text().split()
    assert targets and all(urlsplit(url).hostname == "127.0.0.1" for url in targets), targets
    assert "--ignore-proxy" in command
    assert not set(command) & {"--proxy", "--proxy-file", "--tor"}, command
    (scope,) = option_values(command, "--scope")
    # sqlmap keeps a form's target when re.search(scope, url, re.I) finds it.
    assert all(re.search(scope, url, re.I) for url in targets)
    assert not [url for url in OTHER_URLS + [f"http://127.0.0.1.nip.io:{PORT}/lists", f"http://192.0.2.1:{PORT}/lists"]
                if re.search(scope, url, re.I)], scope


def test_sqlmap_sends_the_held_stylesheet_cookie_beside_the_session(tmp_path: Path, monkeypatch) -> None:
    (command,) = commands_of(lambda: scan.run_sqlmap("sqlmap", FakeServer(), ["/lists"], tmp_path, scan.Outcome(),
                                                     session="abc", held="wishlist_stylesheet=0123"), monkeypatch)
    assert option_values(command, "--cookie") == [f"{scan.h.COOKIE}=abc; wishlist_stylesheet=0123"], command


# Run by Debian's Python. The recorder replaces the network before run_wapiti.py wraps it, so nothing
# leaves the machine whatever run_wapiti.py lets through.
DRIVER = r"""
import contextlib, io, json, runpy, sys
import requests, requests.adapters

sent = []

def record(self, request, *args, **kwargs):
    sent.append(request.url)
    response = requests.models.Response()
    response.status_code, response.url, response.request, response.raw = 204, request.url, request, io.BytesIO(b"")
    return response

requests.adapters.HTTPAdapter.send = record
given = json.load(sys.stdin)

from wapitiCore.main import wapiti as wapiti_main_module
loaded = []
load_attacks = wapiti_main_module.Wapiti._init_attacks

def init_attacks(self):
    load_attacks(self)
    loaded.extend(module.name for module in self.attacks)

wapiti_main_module.Wapiti._init_attacks = init_attacks
sys.argv = [given["script"], *given["arguments"]]
with contextlib.redirect_stdout(sys.stderr):  # wapiti's own output; stdout is for the JSON below
    try:
        runpy.run_path(given["script"], run_name="__main__")
    except SystemExit as exit:
        if exit.code:
            raise
during_the_run = list(sent)

refused = {}
for url in given["urls"]:
    try:
        requests.Session().get(url, timeout=1)
    except requests.exceptions.ConnectionError as error:
        refused[url] = str(error)
print(json.dumps({"loaded": sorted(loaded), "run": during_the_run, "sent": sent[len(during_the_run):], "refused": refused}))
"""


def test_run_wapiti_loads_only_the_named_modules_and_sends_only_to_loopback(tmp_path: Path, monkeypatch) -> None:
    debian_python = Path(scan.DEBIAN_PYTHON)
    has_wapiti = debian_python.exists() and subprocess.run(
        [str(debian_python), "-c", "import wapitiCore"], capture_output=True).returncode == 0
    # make test installs it (TEST_PACKAGES), so CI checks the scanner before make scan uses it.
    assert has_wapiti, "Debian's wapiti is not installed: `make test-deps` installs it"
    command = wapiti_commands(tmp_path, monkeypatch)[0]
    modules = option_values(command, "--module")[0]
    done = subprocess.run(
        [str(debian_python), "-c", DRIVER], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
        input=json.dumps({"script": command[1], "arguments": command[2:], "urls": LOOPBACK_URLS + OTHER_URLS}),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["loaded"] == sorted(modules.split(",")), "wapiti loaded modules the scan does not name"
    assert all(urlsplit(url).hostname == "127.0.0.1" for url in result["run"]), result["run"]
    assert result["sent"] == LOOPBACK_URLS, "a request left loopback, or a loopback one was refused"
    assert sorted(result["refused"]) == sorted(OTHER_URLS)
    assert all("loopback only" in reason for reason in result["refused"].values()), result["refused"]
