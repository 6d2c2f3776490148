"""A rating campaign as one immutable, loaded snapshot (snapshot.py), read once from a source
(source.py: the work tree today), and the figures every face computes from it (figures.py).
Who counts (people, programs, or both: counting.py) is decided here, once."""
