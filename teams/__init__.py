"""Teams, players, staff and support, the gil ledger and team value."""
