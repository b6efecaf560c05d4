"""SEC EDGAR: filings and their XBRL facts fetched into the grid (``research fetch``).

Why a package of its own: fetching is network I/O with rules of its own (SEC's User-Agent
and fair-access limits, retries, a ledger of what was fetched), kept apart from
``retrieval``, which stores and searches pages and never reaches the network. ``edgar``
may import ``retrieval``; only ``cli`` imports ``edgar``.
"""
