"""Runs Debian's wapiti (3.0.4 in bookworm) with six adjustments, none of which changes a check:

1. Its `-x` option builds the regular expression `...\\Z(?ms)`, which Python 3.11 rejects ("global
   flags not at the start"), so any exclusion crashed the crawler. The same translation with the
   flags in front is swapped in.
2. Wapiti instantiates every attack module at start-up, used or not, and `wapp` then tries to
   download its database from the internet. Only the modules named with `-m` are loaded.
3. Every request must go to the loopback address; anything else raises instead of leaving the
   machine.
4. It sends the text fields of a multipart form (the Goodreads import) as file parts
   (`filename="csrf_token"`), which no browser does; the app reads only real fields, so every
   request to that form was refused as a CSRF failure, the form was never really attacked, and the
   csrf module reported "token not properly checked" (both its requests got the same 403). Text
   fields are sent as browsers send them.
5. permanentxss looks for the markers the xss module stored, but it ran last, after blindsql had
   overwritten every stored field (a note holds one value) with its own payloads, so it never found
   a stored XSS even with output escaping switched off. It now runs right after xss.
6. Both XSS modules skip responses a browser would not run as HTML, but for pages read back from
   the crawl they look the Content-Type up case-sensitively ("content-type") in a plain dict that
   holds "Content-Type", so every response counted as HTML: the CSV export (text/csv, an attachment,
   nosniff) was reported as a stored XSS. The lookup ignores case, as HTTP header names do.

Usage: /usr/bin/python3 run_wapiti.py WAPITI-ARGUMENTS...   (the same arguments as `wapiti`)
"""

import ipaddress
import re
import sys
from urllib.parse import urlsplit

import requests.adapters
from wapitiCore.attack import attack
from wapitiCore.net import crawler, xss_utils


def wildcard_translate(pattern: str) -> "re.Pattern[str]":
    """A wildcard pattern (`*` matches anything) as a regular expression matching the whole URL."""
    return re.compile("(?ms)" + "".join(".*" if char == "*" else re.escape(char) for char in pattern) + r"\Z")


crawler.wildcard_translate = wildcard_translate


def valid_xss_content_type(http_res) -> bool:
    """Whether a browser would run the response as HTML: no Content-Type, or text/html."""
    headers = {str(name).lower(): value for name, value in (http_res.headers or {}).items()}
    return "content-type" not in headers or "text/html" in headers["content-type"]


xss_utils.valid_xss_content_type = valid_xss_content_type  # before the modules import it


def _named_modules(argv: list[str]) -> list[str]:
    for index, argument in enumerate(argv):
        if argument in ("-m", "--module") and index + 1 < len(argv):
            return [name.split(":")[0].strip() for name in argv[index + 1].split(",") if name.strip()]
        if argument.startswith("--module="):
            return [name.split(":")[0].strip() for name in argument.split("=", 1)[1].split(",") if name.strip()]
    raise SystemExit("run_wapiti.py: name the modules with -m")


_wanted = set(_named_modules(sys.argv[1:]))
_order = [module for module in attack.modules if module[len("mod_"):] in _wanted and module != "mod_permanentxss"]
if "permanentxss" in _wanted:
    # Modules run by PRIORITY, ties in list order (a stable sort): same priority as xss, right after it.
    from wapitiCore.attack.mod_permanentxss import mod_permanentxss
    from wapitiCore.attack.mod_xss import mod_xss

    mod_permanentxss.PRIORITY = mod_xss.PRIORITY
    _order.insert(_order.index("mod_xss") + 1 if "mod_xss" in _order else len(_order), "mod_permanentxss")
attack.modules = _order

_send = requests.adapters.HTTPAdapter.send


def _loopback_only(self, request, *args, **kwargs):
    host = urlsplit(request.url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise requests.exceptions.ConnectionError(f"run_wapiti.py: refusing a request to {host!r} (loopback only)")
    return _send(self, request, *args, **kwargs)


requests.adapters.HTTPAdapter.send = _loopback_only

_request = requests.Session.request


def _text_fields_as_fields(self, method, url, *args, files=None, **kwargs):
    if isinstance(files, list):
        files = [
            (name, (None, value)) if isinstance(value, str) else (name, value)
            for name, value in files
        ]
    return _request(self, method, url, *args, files=files, **kwargs)


requests.Session.request = _text_fields_as_fields

from wapitiCore.main.wapiti import wapiti_main  # noqa: E402  (after the adjustments)

if __name__ == "__main__":
    sys.argv[0] = "wapiti"
    sys.exit(wapiti_main())
