"""Sharing a match (issue 14): the server-drawn PNG card at `/matches/<id>/card.png` and the report's tags."""
