"""Market data: daily price bars from a provider, indicators computed from them by code, and
valuation multiples that join a price with statement facts from the grid.

Every number carries where it came from (the provider and the as-of date for a price; the
filing page for a fact), so a report can cite a price series the way it cites a page.
Nothing here reaches the network unless an online provider is chosen by name.
"""
