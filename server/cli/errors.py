"""How the command line reports a library's refusal: the click error of each kind, with the
exit code of :class:`~pokerbots.server.errors.Exit`."""

from __future__ import annotations

import click

from pokerbots.server.errors import Exit, Refusal


class CannotGoOn(click.ClickException):
    """The server itself cannot go on (exit 3): ``Error: MESSAGE``, without the usage."""

    exit_code = Exit.SERVER

    def show(self, file=None) -> None:
        click.echo(f"Error: {self.message}", err=True)


class BadInput(click.ClickException):
    """A file or folder given on the command line that cannot be used (exit 2, as for any bad
    command line): ``Error: MESSAGE``, without the usage, which is not at fault."""

    exit_code = Exit.USAGE


def usage_error(message: str, option: str | None = None) -> click.UsageError:
    """The click error (exit 2) of a bad command line: a bad parameter naming ``option``, or a
    usage error when no one option is at fault."""
    if option is not None:
        return click.BadParameter(message, param_hint=option)
    return click.UsageError(message)


def refused(exc: Refusal) -> click.ClickException:
    """The click error of a library's refusal: exit 2 for a usage error, else 3."""
    if exc.usage:
        return usage_error(exc.message, exc.option)
    return CannotGoOn(exc.message)
