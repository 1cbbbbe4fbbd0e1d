"""STAND-IN for the "teams" helper's ``pokerbots team add`` (the lead merges theirs over it):
only ``team add NAME --data DIR [--organiser]``, printing the token on its own line."""

from __future__ import annotations

from pathlib import Path

import click


def command() -> click.Command:
    @click.group(name="team", help="Teams and their tokens (stand-in: add only).")
    def team() -> None:
        pass

    @team.command(name="add", help="Make team NAME and print its token once.")
    @click.argument("name")
    @click.option("--data", type=click.Path(file_okay=False, path_type=Path),
                  default=Path("pokerbots-data"), show_default=True,
                  help="The service's data folder.")
    @click.option("--organiser", is_flag=True, help="A token for the organiser's views.")
    def add(name: str, data: Path, organiser: bool) -> None:
        from pokerbots.server.service import teams

        click.echo(teams.add(data, name, organiser))

    return team
