"""Operating a node (docs/operations.md): ``/readyz`` checks (``health``), ``/metrics`` (``metrics``),
JSON-lines logs with node and room (``logs``), and SIGTERM draining (``drain``)."""
