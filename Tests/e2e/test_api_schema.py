"""Issue 54: the API answers as its OpenAPI document says, checked by schemathesis.

A server of the test's own, a member with a read token and a read-write token made through the
real Settings form, and schemathesis run against `/api/v1/openapi.json` with each token: no
answer may be a 500, and every status, content type, header and body must match the document.
The examples are bounded so that both runs take about two minutes at most on a busy machine; the
tokens' rate is raised in the config (`api.requestsPerMinute`) so schemathesis cannot lock itself out.
"""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from support import unique_username

CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance"


class Member:
    """A member signed in through the forms, as a browser would, with cookies and CSRF tokens."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.base_url + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, fields: dict[str, str], token_page: str) -> str:
        token = re.search(r'name="csrf_token" value="([^"]+)"', self.get(token_page)).group(1)
        body = urllib.parse.urlencode({**fields, "csrf_token": token}).encode()
        with self.opener.open(self.base_url + path, data=body, timeout=30) as response:
            return response.read().decode()

    def api_token(self, scope: str) -> str:
        page = self.post("/settings/api-tokens", {"name": f"schemathesis {scope}", "scope": scope, "expiry": "30"}, "/settings/api-tokens")
        return re.search(r'id="api-token-secret"[^>]* value="(bw_[A-Za-z0-9_-]{43})"', page).group(1)


def run_schemathesis(base_url: str, token: str, tmp_path: Path, name: str) -> subprocess.CompletedProcess:
    command = [
        str(Path(sys.executable).with_name("schemathesis")), "run", f"{base_url}/api/v1/openapi.json",
        "--url", f"{base_url}/api/v1",
        "--header", f"Authorization: Bearer {token}",
        "--checks", CHECKS,
        "--max-examples", "12",
        "--workers", "1",
        "--seed", "54",
        "--request-timeout", "20",
        "--no-color",
    ]
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SCHEMATHESIS_TELEMETRY": "false"})


@pytest.mark.parametrize("scope", ["read", "read-write"])
def test_every_answer_matches_the_openapi_document(configured_server, tmp_path: Path, scope: str) -> None:
    with configured_server(f"api-schema-{scope}", {"api": {"requestsPerMinute": 100000}}) as base_url:
        member = Member(base_url)
        username = unique_username("api")
        member.post("/signup", {"username": username, "email": "", "password": "correct horse battery",
                                "password_confirm": "correct horse battery", "invite": ""}, "/signup")
        token = member.api_token(scope)
        result = run_schemathesis(base_url, token, tmp_path, scope)
        assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
