import nox


@nox.session
def tests(session):
    session.run("pytest")


@nox.session(name="type-check")
def typecheck(session):
    session.run("mypy", "src")
