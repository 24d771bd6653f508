"greenlight tool launcher"
# Runs a Python tool (sys.argv[1], as `python -m TOOL` would) so that the
# workspace cannot replace it: the interpreter starts with -P (no working
# directory on sys.path), and the tool is imported while sys.path holds
# only the places the interpreter installed things (its prefixes, a venv's
# site-packages, the user site), not the working directory, PYTHONPATH or a
# .pth line pointing into the checkout (an editable install of a src
# layout). Only then does the workspace go first on sys.path, as `python -m`
# puts it, so the project's own packages import exactly as before.
#
# For pytest, plugins come only from installed dependencies: an entry point
# of group pytest11 loads (autoloaded, or named with -p) only when its
# distribution was installed from an index, a wheel or an archive. A
# distribution built from a directory (the project's own editable install,
# `pip install ./plugin`) or whose metadata or files lie outside the
# interpreter's prefixes is the workspace's code, and its entry points never
# load: a patch that adds one to setup.py or pyproject.toml changes nothing.
#
# The Go side (launch.go) drops the comment lines, sets paths (the
# PYTHONPATH entries the project needs, relative to the working directory)
# and passes the rest as the argument of -c; it must contain no single quote.
import os, runpy, site, sys
tool, paths = sys.argv[1], []
roots = []
for r in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix, site.getuserbase()):
    r = os.path.realpath(r)
    if r != os.sep and r not in roots:
        roots.append(r)
def installed(p):
    p = os.path.realpath(p or os.curdir)
    return any(p == r or p.startswith(r + os.sep) for r in roots)
def isolated(call):
    saved = sys.path[:]
    sys.path[:] = [p for p in saved if installed(p)]
    try:
        return call()
    finally:
        sys.path[:] = saved
# What pytest imports later (its built-in plugins, the JUnit writer, its
# dependencies) is imported now too, from the same places.
def preload():
    __import__(tool)
    if tool != "pytest":
        return
    import importlib, _pytest.config
    for m in ["_pytest." + p for p in _pytest.config.default_plugins] + ["pluggy", "iniconfig", "packaging.version", "packaging.requirements", "xml.etree.ElementTree", "json", "pygments"]:
        try:
            importlib.import_module(m)
        except Exception:
            pass
try:
    isolated(preload)
except ImportError as e:
    if e.name != tool:
        raise
    sys.stderr.write(sys.executable + ": No module named " + tool + "\n")
    sys.exit(1)
if tool == "pytest":
    import json
    from importlib import metadata
    import _pytest.config
    def built_here(d):
        where = getattr(d, "_path", None)
        if where is not None and not installed(str(where)):
            return True
        try:
            origin = json.loads(d.read_text("direct_url.json") or "{}")
        except ValueError:
            return True
        if "dir_info" in origin:
            return True
        return any(not installed(str(d.locate_file(f))) for f in d.files or ())
    plugins = isolated(lambda: [(d, e) for d in metadata.distributions() for e in d.entry_points if e.group == "pytest11" and not built_here(d)])
    def load_setuptools_entrypoints(self, group, name=None):
        count = 0
        for d, e in plugins:
            if e.group != group or name not in (None, e.name) or self.get_plugin(e.name) or self.is_blocked(e.name):
                continue
            plugin = isolated(e.load)
            self.register(plugin, name=e.name)
            try:
                from pluggy._manager import DistFacade
                self._plugin_distinfo.append((plugin, DistFacade(d)))
            except Exception:
                pass
            count += 1
        forget()
        return count
    _pytest.config.PytestPluginManager.load_setuptools_entrypoints = load_setuptools_entrypoints
    # pytest-xdist's workers are new interpreters (python -c, the working
    # directory first on sys.path) that load plugins on their own: the
    # tests run in this process instead, whatever -n or --dist asks (the
    # sandbox has one CPU by default).
    class InProcess:
        @_pytest.config.hookimpl(tryfirst=True)
        def pytest_configure(self, config):
            if getattr(config.option, "dist", "no") != "no" or getattr(config.option, "numprocesses", None):
                config.option.dist, config.option.numprocesses, config.option.tx = "no", None, []
                sys.stderr.write("greenlight: pytest-xdist workers not started (-n/--dist): the tests run in the launched pytest process\n")
    # Coverage for greenlight (GREENLIGHT_COVERAGE_LCOV names the LCOV file
    # to write): measured with coverage.py from the installed packages,
    # never through pytest options, so a project that configures pytest-cov
    # itself (--cov=pkg --cov-fail-under=N in addopts, or -p no:cov) runs
    # exactly as in its CI; when pytest-cov is active for the project, its
    # measurement is the project's and greenlight measures nothing.
    lcov = os.environ.pop("GREENLIGHT_COVERAGE_LCOV", "")
    class Measure:
        cov = None
        @_pytest.config.hookimpl(trylast=True)
        def pytest_configure(self, config):
            if not lcov or config.pluginmanager.has_plugin("_cov"):
                return
            try:
                coverage = isolated(lambda: __import__("coverage"))
                self.cov = coverage.Coverage(data_file=lcov + ".data", source=[here], config_file=False)
                self.cov.start()
            except Exception as e:
                self.cov = None
                sys.stderr.write("greenlight: coverage not measured: " + repr(e) + "\n")
        @_pytest.config.hookimpl(tryfirst=True)
        def pytest_unconfigure(self, config):
            if self.cov is None:
                return
            try:
                self.cov.stop()
                self.cov.lcov_report(outfile=lcov)
            except Exception as e:
                sys.stderr.write("greenlight: coverage not written: " + repr(e) + "\n")
    main = _pytest.config.main
    _pytest.config.main = lambda args=None, plugins=None: main(args, list(plugins or ()) + [InProcess(), Measure()])
here = os.getcwd()
dirs = [here] + [os.path.join(here, p) for p in paths]
# A project that is itself one of the tool's dependencies (packaging,
# pluggy, iniconfig, attrs) or of a plugin the tool loads (markupsafe under
# a plugin that imports werkzeug) must be tested as its own code, as in CI
# where installing it replaces the installed copy: that copy is forgotten,
# so the project's tests import the workspace's, while the tool and its
# plugins keep the copy they bound at import. Forgotten are the top-level
# packages the working directory or src holds; the pytest machinery
# (pytest, pluggy, iniconfig, packaging) only when the project is named
# like it (pyproject.toml's or setup.cfg's name), so a patch adding a
# directory named like it changes nothing.
def project_name():
    import configparser, tomllib
    try:
        with open(os.path.join(here, "pyproject.toml"), "rb") as f:
            name = tomllib.load(f).get("project", {}).get("name")
        if isinstance(name, str):
            return name
    except (OSError, ValueError):
        pass
    c = configparser.ConfigParser(interpolation=None)
    try:
        c.read(os.path.join(here, "setup.cfg"))
        return c.get("metadata", "name", fallback="")
    except (configparser.Error, UnicodeError):
        return ""
named = (project_name() or "").strip().lower().replace("-", "_").replace(".", "_")
machinery = {"pytest", "_pytest", "py", "pluggy", "iniconfig", "packaging"}
never = {tool, "_" + tool, "pytest", "_pytest", "runpy", "site", "sitecustomize", "usercustomize"} | set(sys.stdlib_module_names) | set(sys.builtin_module_names)
def ours(top):
    return any(os.path.isfile(os.path.join(d, top, "__init__.py")) or os.path.isfile(os.path.join(d, top + ".py")) for d in dirs)
def forget():
    for top in {m.split(".")[0] for m in list(sys.modules)}:
        if top in never or (top in machinery and top != named) or not ours(top):
            continue
        for m in [m for m in sys.modules if m == top or m.startswith(top + ".")]:
            del sys.modules[m]
forget()
sys.path[:0] = dirs
if paths:
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + [v for v in [os.environ.get("PYTHONPATH")] if v])
del sys.argv[1]
runpy.run_module(tool, run_name="__main__", alter_sys=True)
