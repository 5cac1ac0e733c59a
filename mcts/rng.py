"""The seeded generator for compiled code, kept importable here for existing plug-ins: it lives
in the contract layer, :mod:`games.rng`."""
from games.rng import below, new_rng, next_u64, random_below, split_seed  # noqa: F401
