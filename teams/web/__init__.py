"""The team pages: the team sheet (`sheet.py`), its coach-only forms (`actions.py`, `forms.py`)."""
