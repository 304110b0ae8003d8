"""The ending every style check shares: each failure on a line of its own,
then one summary line; the exit status 1 when anything failed."""


def finish(failures, summary):
    for f in failures:
        print(f)
    print(summary)
    return 1 if failures else 0
