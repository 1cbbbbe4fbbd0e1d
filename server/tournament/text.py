"""The standings and the list of matches as plain text (``tournament``, ``standings``, ``show``).

Plain fixed-width text, the same on a terminal, in a pipe and in CI logs.
"""

from __future__ import annotations

from pokerbots.server.tournament import view as view_


def standings_text(document: dict) -> str:
    """The standings table of a ``standings.json`` document, with a heading line, the bots out
    of the ranking and why, the figure that ranks, what the intervals stand on, and the
    run-off order."""
    view = view_.of(document)
    columns = ["rank", "bot", "per hand", "± 95%", "units", "hands", "faults", "run-off",
               "bankroll", "95% interval"]
    if view.allin:
        columns += ["all-in adj.", "± 95%"]
    if view.luck:
        columns += ["luck adj.", "± 95%"]
    columns += ["apart from next", "out"]
    rows = []
    for row in view.rows:
        cells = [str(row.rank), row.name, row.per_hand_text, row.half_text, row.units_text,
                 row.hands_text, str(row.faults), str(row.runoff_rank), row.bankroll_text,
                 row.interval_text]
        for shown, figure in ((view.allin, row.allin), (view.luck, row.luck)):
            if shown:
                cells += [figure.text, figure.half_text] if figure else ["-", "-"]
        cells += [row.separate_text, row.out_text]
        rows.append(cells)
    widths = [max(len(c) for c in column) for column in zip(columns, *rows)]
    out = [view.heading, ""]
    for cells in [columns, *rows]:
        out.append("  ".join(c.ljust(w) if i in (1, len(cells) - 1) else c.rjust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))).rstrip())
    out.append("")
    for note in view.out_notes:
        out.append(f"{note}; it ranks below every bot still in.")
    out.append(view.rank_by_text)
    out.append(view.unit_text)
    out.append(view_.SEPARATE_NOTE)
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
