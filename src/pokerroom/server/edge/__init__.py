"""The browser edge: what a request or a socket must pass before it reaches a room: Host and JSON checks and
security headers (``headers``), accept and per-address guards (``guard``), invite links and the Host
allow-list (``hosts``), sizes, rates and caps (``limits``)."""
