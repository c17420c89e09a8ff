"""Sharing a match: the server-drawn PNG card at `/matches/<id>/card.png` and the report's tags."""
