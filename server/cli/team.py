"""``pokerbots team add|list|revoke``: the teams of a service and their tokens
(:mod:`pokerbots.server.service.data.teams`), in its data folder; the service may be running.
:data:`DATA` and :func:`service_store` serve every command on a service's data folder."""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

import click

from pokerbots.server.cli.errors import BadInput, CannotGoOn

DATA = click.option("--data", type=click.Path(file_okay=False, path_type=Path),
                    default=Path("pokerbots-data"), show_default=True,
                    help="The service's data folder (as given to pokerbots serve).")


@contextmanager
def service_store(data: Path, *, create: bool = False):
    """``with service_store(data) as store``: the store of the service whose data folder is
    ``data`` (BadInput if there is none, unless ``create``), closed after; a StoreError is
    exit 3."""
    from pokerbots.server.service.data import store

    if not create and not (data / store.FILE).is_file():
        raise BadInput(f"{data} holds no service (no {store.FILE}): give the --data folder"
                       " of pokerbots serve")
    try:
        opened = store.open_store(data)
    except store.StoreError as exc:
        raise CannotGoOn(str(exc)) from None
    try:
        yield opened
    except store.StoreError as exc:
        raise CannotGoOn(str(exc)) from None
    finally:
        opened.close()


def add(name: str, data: Path, organiser: bool) -> None:
    """Add the team NAME (its bot plays as NAME) and print its token, once: it is kept
    nowhere. An --organiser token sees every page and uploads nothing. A revoked NAME gets a
    new token."""
    from pokerbots.server.service.data.teams import TeamError, add_team

    with service_store(data, create=True) as store:
        try:
            token = add_team(store, name, organiser=organiser)
        except TeamError as exc:
            raise click.BadParameter(str(exc), param_hint="NAME") from None
    click.echo(token)
    click.echo(f"{'Organiser' if organiser else 'Team'} {name} added. This token is shown"
               " once: give it to the team (pokerbots submit --token, or the site's login).",
               err=True)


def list_(data: Path) -> None:
    """List the teams: name, kind, when added, revoked or not."""
    from pokerbots.server.service.data.teams import list_teams

    with service_store(data) as store:
        found = list_teams(store)
    if not found:
        click.echo(f"No team in {data}: pokerbots team add NAME --data {data}")
        return
    for team in found:
        added = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(team["created"]))
        state = ("revoked " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(team["revoked"]))
                 if team["revoked"] is not None else "active")
        kind = "organiser" if team["organiser"] else "team"
        click.echo(f"{team['name']:<40}  {kind:<9}  added {added}  {state}")


def revoke(name: str, data: Path) -> None:
    """End the token of NAME: it opens nothing any more, and the team's bot plays no more
    (its versions and results are kept). `team add NAME` gives it a new token."""
    from pokerbots.server.service.data.teams import TeamError, revoke_team

    with service_store(data) as store:
        try:
            revoke_team(store, name)
        except TeamError as exc:
            raise click.BadParameter(str(exc), param_hint="NAME") from None
    click.echo(f"The token of {name} is revoked.")


def command() -> click.Group:
    """The ``team`` command group, built when the command line runs it."""
    group = click.Group(name="team", help="The teams of a competition and their tokens.")
    name = click.argument("name")
    group.add_command(click.command(name="add", short_help="Add a team; print its token.")(
        name(DATA(click.option("--organiser", is_flag=True,
                                help="A token for the organiser: every page, no bot.")(add)))))
    group.add_command(click.command(name="list", short_help="List the teams.")(DATA(list_)))
    group.add_command(click.command(name="revoke", short_help="End a team's token.")(
        name(DATA(revoke))))
    return group
