"""five35.checks.fuzz: another engine played against the reference engine through the engine
protocol (five35.protocol), on rounds Hypothesis generates (differential.py, `535-check fuzz`), and
the first divergence shrunk to a round small enough to read (shrink.py)."""
