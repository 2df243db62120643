"""The simulated community (``simulation.py``): the whole site used by people over weeks of
a fake clock, run small by ``tests/test_community.py`` and large by ``bench/community.py``."""
