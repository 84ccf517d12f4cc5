"""What the tests of test/Python share (lit.local.cfg puts this folder on
PYTHONPATH)."""


def show(what, call):
    """Runs `call` and prints what it raised, type and message, or that it
    raised nothing: the exception's text is what FileCheck checks."""
    try:
        call()
        print("%s: no exception" % what)
    except Exception as e:
        print("%s: %s: %s" % (what, type(e).__name__, e))
