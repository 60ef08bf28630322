"""The cluster side of the room server: many ``pokerroom serve`` nodes on one Redis and one
PostgreSQL.

Why a package of its own: the single-node server (``pokerroom serve`` without ``--redis``) must never import
it, nor redis or psycopg; the CLI imports :mod:`pokerroom.cluster.node` lazily behind the flag. Each module
has one job:

- :mod:`~pokerroom.cluster.keys`: every Redis key and channel name, under one prefix;
- :mod:`~pokerroom.cluster.lease`: one owner per room (a lease with a TTL) and its fencing token;
- :mod:`~pokerroom.cluster.placement`: the live nodes and where a new room goes;
- :mod:`~pokerroom.cluster.relay`: pub/sub between nodes (client messages in, frames out, requests);
- :mod:`~pokerroom.cluster.limits`: the cluster-wide caps (rooms per address, total rooms, sockets per room);
- :mod:`~pokerroom.cluster.node`: wires them to the room server.
"""
