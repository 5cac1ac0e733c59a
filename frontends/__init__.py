"""Terminal front ends of the engine: play, analyze (and the helpers they share)."""
