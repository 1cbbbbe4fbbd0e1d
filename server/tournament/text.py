"""The standings and the list of matches as plain text (``tournament``, ``standings``, ``show``).

Plain fixed-width text, the same on a terminal, in a pipe and in CI logs.
"""

from __future__ import annotations

from pokerbots.server.tournament.progress import table_cells


def standings_text(document: dict) -> str:
    """The standings table of a ``standings.json`` document, with a heading line."""
    counts = document["matches"]
    lines = document["bots"]
    allin = bool(lines) and "allin_adjusted_per_hand" in lines[0]
    head = (f"{document['game']}, {document['players']} players, {document['hands_per_match']:,}"
            f" hands per match{', duplicate' if document['duplicate'] else ''},"
            f" seed {document['seed']}: {counts['done']} matches done, {counts['failed']}"
            f" failed, {counts['skipped']} skipped of {counts['planned']} planned")
    columns = ["rank", "bot", "per hand", "± 95%", "hands", "faults", "run-off",
               "bankroll", "95% interval"]
    if allin:
        columns += ["all-in adj.", "± stderr"]
    rows = []
    for line in lines:
        ci = line["ci95"]
        cells = table_cells(line) + [
            f"{line['bankroll']:+,}" if isinstance(line["bankroll"], int)
            else f"{line['bankroll']:+,.1f}",
            "-" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"]
        if allin:
            adjusted, se = line["allin_adjusted_per_hand"], line["allin_adjusted_stderr"]
            cells += ["-" if adjusted is None else f"{adjusted:+.4f}",
                      "-" if se is None else f"{se:.4f}"]
        rows.append(cells)
    widths = [max(len(c) for c in column) for column in zip(columns, *rows)]
    out = [head, ""]
    for cells in [columns, *rows]:
        out.append("  ".join(c.ljust(w) if i == 1 else c.rjust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))).rstrip())
    out.append("")
    out.append("Run-off order: " + ", ".join(document["runoff"]))
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
