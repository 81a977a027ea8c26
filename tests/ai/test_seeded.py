"""The engine's own seeded generator: the `hard` search's sample streams when the caller's
generator kind cannot be seeded."""

from __future__ import annotations

from engine.seeded import SplitMix64


def test_splitmix64_gives_the_reference_stream() -> None:
    # SplitMix64 from seed 0: 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4 (the published vector)
    rng = SplitMix64(0)
    expected = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)
    assert [rng.random() for _ in expected] == [(v >> 11) / (1 << 53) for v in expected]


def test_a_seed_repeats_and_other_seeds_differ() -> None:
    def draws(seed: int) -> list[float]:
        rng = SplitMix64(seed)
        return [rng.random() for _ in range(5)]

    assert draws(17) == draws(17)
    assert draws(17) != draws(18)


def test_draws_fill_the_unit_interval_evenly() -> None:
    rng = SplitMix64(12345)
    counts = [0] * 10
    for _ in range(20_000):
        value = rng.random()
        assert 0.0 <= value < 1.0
        counts[int(value * 10)] += 1
    assert all(1_800 < count < 2_200 for count in counts)  # 2000 expected, sd ~42


def test_the_search_streams_are_the_callers_kind_or_splitmix() -> None:
    import random

    from engine.search import _stream

    stream = _stream(random.Random(1), 42)
    assert type(stream) is random.Random
    assert stream.random() == random.Random(42).random()
    assert type(_stream(SplitMix64(1), 42)) is SplitMix64

    class Unseedable:
        def random(self) -> float:
            return 0.5

    assert type(_stream(Unseedable(), 42)) is SplitMix64
