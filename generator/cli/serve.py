"""``quarterdeck serve``: the local web front-end (``generator.web``), served by waitress."""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.commandline import say, warn
from generator.core.errors import UsageError
from generator.kit.options import data_option, out_option

LOCAL = ("127.0.0.1", "localhost", "::1")
"""Hosts that only this computer can reach."""


@click.command()
@click.option("--port", type=click.IntRange(1024, 65535), default=8642, show_default=True,
              help="Port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but this computer needs --allow-remote.")
@click.option("--allow-remote", "allow_remote", is_flag=True,
              help="Let other computers reach the server (it has no passwords: only on a "
                   "network you trust).")
@click.option("--no-browser", "no_browser", is_flag=True, help="Do not open a browser.")
@click.option("--jobs", "running", type=click.IntRange(1, 8), default=2, show_default=True,
              help="Builds that may run at once.")
@click.option("--job-time", "seconds", type=click.IntRange(10, 3600), default=600,
              show_default=True, help="Seconds a build may run before it is stopped.")
@out_option("Folder the builds are written into (each in a folder of its own).")
@data_option
def serve(port: int, host: str, allow_remote: bool, no_browser: bool, running: int,
          seconds: int, out: Path, data: tuple[Path, ...]) -> None:
    """Open quarterdeck in your browser: scenarios, builds, events, calculators, classes.

    Serves this computer only (127.0.0.1) unless --host and --allow-remote say otherwise.
    Stop it with Ctrl-C.
    """
    import waitress

    from generator.web.app import Settings, create_app
    from generator.web.jobs import Limits

    if host not in LOCAL and not allow_remote:
        raise UsageError(f"--host: found '{host}', expected 127.0.0.1 (this computer) "
                         "unless --allow-remote is given too")
    if host not in LOCAL:
        warn(f"serving on {host}: anyone who can reach this computer on port {port} can "
             "build kits and read your data folder's scenarios and classes; there is no "
             "password")
    root = click.get_current_context().find_root().command
    assert isinstance(root, click.Group)
    folders = [p.resolve() for p in data]
    for folder in folders:
        if not folder.exists():
            raise UsageError(f"--data: found '{folder}', expected an existing folder or file")
    app = create_app(Settings(root, out.resolve(), folders, Limits(running, 30, seconds)))
    address = f"http://{'localhost' if host in LOCAL else host}:{port}/"
    say(f"quarterdeck is at {address} (Ctrl-C to stop)")
    if not no_browser:
        import webbrowser

        webbrowser.open(address)
    try:
        waitress.serve(app, host=host, port=port, threads=8, ident="quarterdeck",
                       max_request_body_size=1024 * 1024, _quiet=True)
    except OSError as exc:  # the port is taken, or the address is not this computer's
        raise UsageError(f"--port: could not listen on {host}:{port}: {exc.strerror}; "
                         "expected a free port (try --port 8643)") from None


COMMANDS = [serve]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""


