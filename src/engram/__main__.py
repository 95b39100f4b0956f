"""``python -m engram``: the ``engram`` command, for when its script is not on ``PATH``
(a virtualenv not activated, ``pipx run``, a notebook's ``!python -m engram``).

It runs the same entry point as the script, so usage and help say ``engram``."""

from engram.cli.main import main

if __name__ == "__main__":
    main()
