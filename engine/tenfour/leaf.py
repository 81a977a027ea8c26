"""The fitted leaf of 10-Four `hard` (generated, do not edit): logistic weights of
`engine.tenfour.ai.leaf_features`, the tempo first, fitted to 2-player
`medium` self-play outcomes by

    python -m bench.ai_fit --players 2 --games 3000 --seed 1 --out engine/tenfour/leaf.py
"""

WEIGHTS: dict[int, tuple[float, ...]] = {
  2: (
    0.2218017859855683,
    -0.014607544446882056,
    -0.09131343887787137,
    0.08349331572557762,
    -0.46288376298925665,
    0.0,
    -0.09400673145118656,
    1.0613325040276067,
    5.0635329706438155,
    0.15370710436766477,
    7.224807060326115,
    0.0,
    3.4616560953128284,
  ),
}
