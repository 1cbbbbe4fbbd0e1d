#!/usr/bin/env python3
"""Post the site's forms as another site's page would, and as the site and a script would.

    python tests/programs/attacks/cross_site.py URL --token TOKEN [--json]

A page elsewhere (``https://evil.example``) can make a visitor's browser post to this site's
forms: ``POST /login`` (log the visitor in as the token's team, so that their next upload goes
to it), ``POST /logout`` and the upload form (``POST /api/submissions``, multipart, the login
cookie as the token). A browser says where a post comes from in ``Origin``, and in
``Sec-Fetch-Site``; a script sends neither. Each case is one request; printed: its status,
whether it set the login cookie (``set``), cleared it (``cleared``) or neither, and the start of
its answer. ``--json`` prints the same as one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import html
import http.client
import io
import json
import re
import tarfile
from urllib.parse import urlsplit

EVIL = "https://evil.example"
FORM = "application/x-www-form-urlencoded"
BOUNDARY = "----WebKitFormBoundaryQ8s7cYlPqVb2xJtW"


def archive() -> bytes:
    """A bot folder with one ``bot.py``, as a ``.tar.gz``."""
    source = b"import sys\nfor line in sys.stdin:\n    pass\n"
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        info = tarfile.TarInfo("bot.py")
        info.size, info.mode = len(source), 0o644
        tar.addfile(info, io.BytesIO(source))
    return out.getvalue()


def upload_form() -> tuple[bytes, str]:
    body = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"archive\";"
            f" filename=\"bot.tar.gz\"\r\nContent-Type: application/gzip\r\n\r\n").encode()
    body += archive() + f"\r\n--{BOUNDARY}--\r\n".encode()
    return body, f"multipart/form-data; boundary={BOUNDARY}"


def cases(url: str, token: str) -> list[tuple[str, str, bytes, dict]]:
    """``(name, path, body, headers)`` of each request, in the order they are sent."""
    parts = urlsplit(url)
    own = f"{parts.scheme}://{parts.netloc}"
    login = f"token={token}".encode()
    cookie = {"Cookie": f"pokerbots_token={token}"}
    form, kind = upload_form()
    return [
        ("login from another site", "/login", login, {"Origin": EVIL, "Content-Type": FORM}),
        ("login, Sec-Fetch-Site: cross-site", "/login", login,
         {"Sec-Fetch-Site": "cross-site", "Content-Type": FORM}),
        ("login, Origin: null", "/login", login, {"Origin": "null", "Content-Type": FORM}),
        ("logout from another site", "/logout", b"", {"Origin": EVIL, **cookie}),
        ("upload form from another site", "/api/submissions", form,
         {"Origin": EVIL, "Sec-Fetch-Site": "cross-site", "Content-Type": kind, **cookie}),
        ("login from the site itself", "/login", login,
         {"Origin": own, "Sec-Fetch-Site": "same-origin", "Content-Type": FORM}),
        ("login from a script", "/login", login, {"Content-Type": FORM}),
        ("logout from the site itself", "/logout", b"", {"Origin": own, **cookie}),
        ("upload from a script", "/api/submissions", archive(),
         {"Authorization": f"Bearer {token}"}),
    ]


def send(url: str, path: str, body: bytes, headers: dict) -> dict:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers)
        answer = connection.getresponse()
        text = answer.read().decode("utf-8", "replace")
        cookie = answer.getheader("set-cookie") or ""
    finally:
        connection.close()
    error = re.search(r'<p class="error"[^>]*>(.*?)</p>', text, re.S)
    if error:  # a page: its error paragraph
        text = html.unescape(error[1])
    return {"status": answer.status,
            "cookie": ("cleared" if 'pokerbots_token=""' in cookie
                       else "set" if cookie.startswith("pokerbots_token=") else "none"),
            "answer": " ".join(text.split())[:300]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--token", required=True, help="a team's token")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = {}
    for name, path, body, headers in cases(args.url, args.token):
        found[name] = answer = send(args.url, path, body, headers)
        print(f"{name}: {answer['status']}, cookie {answer['cookie']}:"
              f" {answer['answer'][:100]}")
    if args.json:
        print(json.dumps(found))


if __name__ == "__main__":
    main()
