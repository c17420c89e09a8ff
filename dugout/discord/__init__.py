"""The league's Discord, both ways: the interactions endpoint's answers (`interactions.py`), the slash commands
it answers (`commands.py`) and their registration with Discord's API (`register.py`)."""
