"""``python -m gcgtools ...``: the ``gcgtools`` command (``python -X importtime -m gcgtools
validate game.gcg`` shows what a command imports)."""

from gcgtools.cli import main

if __name__ == "__main__":
    main()
