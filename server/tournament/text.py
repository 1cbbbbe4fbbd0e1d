"""The standings and the list of matches as plain text (``tournament``, ``standings``, ``show``).

Plain fixed-width text, the same on a terminal, in a pipe and in CI logs.
"""

from __future__ import annotations

from pokerbots.server.tournament import view as view_


def standings_text(document: dict) -> str:
    """The standings table of a ``standings.json`` document, with a heading line, a line under
    it for each of its columns (what it says), the bots out of the ranking and why, the figure
    that ranks, and the run-off order."""
    view = view_.of(document)
    columns = [("rank", "rank"), ("bot", "bot"), ("raw", "per hand"), ("pm", "± 95%"),
               ("units", "units"), ("hands", "hands"), ("faults", "faults")]
    if view.has_runoff:
        columns.append(("runoff", "run-off"))
    columns += [("bankroll", "bankroll"), ("interval", "95% interval")]
    if view.allin:
        columns += [("allin", "all-in adj."), ("pm", "± 95%")]
    if view.luck:
        columns += [("luck", "luck adj."), ("pm", "± 95%")]
    columns.append(("apart", "apart from next"))
    if view.has_out:
        columns.append(("out", "out"))
    rows = []
    for row in view.rows:
        cells = [row.rank_text, row.name, row.per_hand_text, row.half_text, row.units_text,
                 row.hands_text, str(row.faults)]
        if view.has_runoff:
            cells.append(row.runoff_text)
        cells += [row.bankroll_text, row.interval_text]
        for shown, figure in ((view.allin, row.allin), (view.luck, row.luck)):
            if shown:
                cells += [figure.text, figure.half_text] if figure else ["-", "-"]
        cells.append(row.separate_text)
        if view.has_out:
            cells.append(row.out_text)
        rows.append(cells)
    headings = [heading for _, heading in columns]
    widths = [max(len(c) for c in column) for column in zip(headings, *rows)]
    left = {1, len(headings) - 1}  # the bot's name, and the last column's words
    out = [view.heading, ""]
    for cells in [headings, *rows]:
        out.append("  ".join(c.ljust(w) if i in left else c.rjust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))).rstrip())
    out.append("")
    legend = view.legend(columns)
    width = max(len(heading) for heading, _ in legend)
    out += [f"{heading:<{width}}  {text}" for heading, text in legend]
    out.append("")
    for note in view.out_notes:
        out.append(f"{note}; it ranks below every bot still in.")
    out.append(view.rank_by_text)
    if view.runoff:
        out.append("Run-off order: " + ", ".join(view.runoff))
    return "\n".join(out)


def matches_text(rows: list[dict]) -> str:
    """One line per match: number, table, deal set, seating, status, hands, bankrolls."""
    out = ["Matches:", ""]
    for row in rows:
        money = ", ".join(f"{name} {value:+d}"
                          for name, value in zip(row["seating"], row["bankrolls"] or []))
        if not money:
            money = ", ".join(row["seating"])
        line = (f"  {row['id']:>5}  table {row['table_no']} deal set {row['deal_set']}"
                f" seating {row['seating_no']}  {row['status']:<8}"
                f" {row['hands'] if row['hands'] is not None else '-':>6} hands  {money}")
        if row["status"] == "failed":
            line += f"\n         {row['culprit']} broke a rule: logs {row['log_dir']}"
        out.append(line)
    return "\n".join(out)
