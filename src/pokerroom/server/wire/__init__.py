"""What travels on the websocket: the message schemas and Korean error texts (``protocol``) and the view
deltas a client applies to its last view (``deltas``). One place to look when a frame changes."""
