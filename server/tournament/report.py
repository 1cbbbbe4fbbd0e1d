"""``report.html``: the tournament on one self-contained static page.

No script, no external style sheet, font or image: the page is read offline as well as served
by the results web server. It shows the standings with each 95% interval drawn as an error bar
(inline SVG), the run-off order, the crosstable of head-to-head results as a coloured matrix
(green wins, red losses, faint where the interval holds 0), the faults with links to each
failed match's folder, and the options and seed as a table. The page is the Jinja2 template
``templates/report.html`` (its content ``templates/report_body.html``), rendered with
autoescaping: every text that comes from outside (bot names, arguments, error paragraphs,
options) is escaped as :func:`html.escape` escapes it.

:func:`body` is the page without its frame, with the links to failed matches given by the
caller: the competition service (``pokerbots serve``) shows it inside its own pages, linking
each match to the service's address for it.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from pathlib import Path

from markupsafe import Markup

from pokerbots.server.tournament import standings as standings_
from pokerbots.server.tournament import view as view_
from pokerbots.server.tournament.results_store import Store

FILE = "report.html"
#: The folder of this layer's templates (the service's site loads them too).
TEMPLATES = Path(__file__).resolve().parent / "templates"

#: A link to a failed match's logs: ``(href, text)``; no href, the text alone.
Link = tuple[str | None, str]


def _escaped(value) -> Markup:
    """Autoescaping as :func:`html.escape` does it (``&#x27;`` and ``&quot;``, which pages
    have always had), not markupsafe's spelling; markup already made stays as it is."""
    if hasattr(value, "__html__"):
        return value
    return Markup(html.escape(str(value), quote=True))


def environment(*folders: Path):
    """A Jinja2 environment over ``folders`` (this layer's templates last), autoescaping
    ``.html``, ``.svg`` and ``.xml`` templates."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*map(str, folders), str(TEMPLATES)]),
        autoescape=jinja2.select_autoescape(["html", "svg", "xml"]),
        finalize=_escaped, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined)
    env.globals["bar_width"] = view_.BAR_WIDTH
    return env


_ENV = None


def _environment():
    global _ENV
    if _ENV is None:
        _ENV = environment()
    return _ENV


def _link(folder: Path, log_dir: str | None) -> Link:
    if not log_dir:
        return None, ""
    try:
        target = os.path.relpath(log_dir, folder)
    except ValueError:
        target = log_dir
    return f"{target}/", target


def render(store: Store, folder: Path, document: dict | None = None) -> str:
    """The page for the tournament whose store is ``store`` and folder ``folder``."""
    document = document or standings_.document(store)
    return _environment().get_template("report.html").render(
        _context(store, document, lambda row: _link(folder, row["log_dir"]))) + "\n"


def body(store: Store, document: dict, link: Callable[[dict], Link]) -> Markup:
    """The report's content: headings, tables and fault paragraphs (``link(row)``: where the
    link to a failed match's logs leads and its text, see :data:`Link`)."""
    return Markup(_environment().get_template("report_body.html").render(
        _context(store, document, link)))


def _context(store: Store, document: dict, link: Callable[[dict], Link]) -> dict:
    options = store.meta("options")
    rows = store.matches()
    if "crosstable" not in document:  # a document stored before it had one
        names = [line["name"] for line in document.get("bots") or []]
        document = {**document, "crosstable": standings_.crosstable(
            rows, names, standings_.rules_of(options))}
    return {
        "view": view_.of(document),
        "faults": [(row, *link(row)) for row in rows if row["status"] == "failed"],
        "options": view_.option_rows(options),
        "entrants": store.entrants(),
    }
