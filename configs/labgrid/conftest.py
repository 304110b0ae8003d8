"""Options of test_benchrack.py (labgrid's pytest plugin adds --lg-env)."""


def pytest_addoption(parser):
    group = parser.getgroup("benchrack")
    group.addoption("--benchrack", default="benchrack", help="the benchrack to run (default: PATH's)")
    group.addoption("--benchrack-suite", default=None,
                    help="the suite file (default: configs/suites/default.yaml beside this folder)")
    group.addoption("--benchrack-firmware", default=None,
                    help="the suite firmware (default: the suite's, or benchrack's own image)")
    group.addoption("--benchrack-results", default="results",
                    help="benchrack's results directory (default: results)")
