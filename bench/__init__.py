"""cb-rig benchmarks and performance budget: `python -m bench` or `cbrig bench`."""
