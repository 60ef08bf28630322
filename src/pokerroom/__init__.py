"""pokerroom: a private browser poker room with seven modes and virtual chips only.

Layers (dependencies point one way, top to bottom):
cards/rng -> hands (evaluators), betting (betting rounds, pots, awards) -> engine (modes, setup/apply/view/
timeouts/result) -> bots, tools -> server -> web. The engine never imports the server.
"""

__version__ = "0.1.0"
