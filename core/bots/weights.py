"""The learned evaluation's weights (core.bots.learned): data written by bench/evalfit.py."""

# python bench/evalfit.py --games 2000 --seed 1; hold-out log-loss (fit, hand-made, uniform):
# 2 players: 0.649, 0.957, 0.693 (18755 positions fitted, 4653 held out)
# 4 players: 1.308, 1.952, 1.386 (22434 positions fitted, 5617 held out)

from __future__ import annotations

from typing import Final

DUEL: Final[tuple[float, ...]] = (
    0.1816,  # score
    0.23957,  # balcony pigeons
    0.21525,  # balcony guano
    0.01841,  # hand
    0.09916,  # hand blam
    0.07163,  # hand guano
    -0.12034,  # hand mountain
    0.15442,  # hand wroom
    0.18793,  # hand zot
    -0.30504,  # hand birdseed
    -0.05884,  # hand fine
    -0.01051,  # hand sweeper
    0.15438,  # wroom takes
    0.12008,  # zot takes
    -0.03993,  # blam takes
    -0.37847,  # invasion to come
    0.2851,  # turns to wait
    0.25891,  # score x late
    -0.14421,  # balcony pigeons x late
    -0.0499,  # balcony guano x late
    -0.01469,  # hand x late
    0.2342,  # hand blam x late
    -0.21959,  # hand guano x late
    -0.00558,  # hand mountain x late
    -0.57022,  # hand wroom x late
    -0.59839,  # hand zot x late
    1.38343,  # hand birdseed x late
    -0.09354,  # hand fine x late
    -0.14501,  # hand sweeper x late
    -0.07137,  # wroom takes x late
    -0.20098,  # zot takes x late
    0.38974,  # blam takes x late
    0.99884,  # invasion to come x late
    -3.29724,  # turns to wait x late
)
MANY: Final[tuple[float, ...]] = (
    0.16941,  # score
    0.2336,  # balcony pigeons
    0.31688,  # balcony guano
    -0.00799,  # hand
    0.15643,  # hand blam
    -0.06204,  # hand guano
    -0.04985,  # hand mountain
    0.09827,  # hand wroom
    0.08336,  # hand zot
    -0.1692,  # hand birdseed
    0.01879,  # hand fine
    -0.08376,  # hand sweeper
    0.06561,  # wroom takes
    0.07756,  # zot takes
    -0.13678,  # blam takes
    0.33374,  # invasion to come
    0.4459,  # turns to wait
    0.33202,  # score x late
    0.06735,  # balcony pigeons x late
    -0.27705,  # balcony guano x late
    0.06725,  # hand x late
    0.04177,  # hand blam x late
    0.02998,  # hand guano x late
    0.01809,  # hand mountain x late
    -0.30985,  # hand wroom x late
    -0.20069,  # hand zot x late
    0.49472,  # hand birdseed x late
    -0.00239,  # hand fine x late
    -0.00439,  # hand sweeper x late
    0.1492,  # wroom takes x late
    0.01815,  # zot takes x late
    0.61689,  # blam takes x late
    1.02243,  # invasion to come x late
    -2.92364,  # turns to wait x late
)
