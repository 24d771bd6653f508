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
# The image carries common pytest plugins (Debian python3-pytest-*) for
# the projects that use them, but pytest autoloads every installed plugin,
# and loading them all costs ~0.5 s per run (pytest-rerunfailures imports
# pkg_resources, pytest-httpserver werkzeug). CI installs only what the
# project declares, so a plugin the image carries autoloads only when the
# project depends on it: its distribution is named in the project's
# dependency and configuration files (pyproject.toml, setup.cfg, setup.py,
# requirements files, tox.ini, noxfile.py, Pipfile, CI workflows, here and
# at the checkout's top), or required by a distribution so named or by one
# the project installed itself (its venv), transitively. Plugins the
# project installed itself always load, as do those without which async
# tests would be skipped instead of run (pytest-asyncio, anyio) whenever a
# Python file of the checkout mentions async code (async_used); `-p NAME`
# loads any plugin. What was left out is said on stderr, and its modules
# cannot be imported (a finder kept before pytest's assertion rewriter on
# sys.meta_path, which would load them as plugins), as if not installed: a
# loaded plugin that finds another importable assumes it is loaded too
# (pytest-rerunfailures registers pytest-xdist hooks when xdist imports).
# A project whose options name a plugin it does not declare (addopts = -n
# 2 without pytest-xdist) would stop at pytest's usage error: before any
# test runs, the launcher then starts pytest again with every plugin, as
# before this selection existed.
always = {"pytest-asyncio", "anyio"}
dep_files = {"setup.py", "noxfile.py", "conftest.py", "Pipfile", "Makefile", "tox.ini", "pytest.ini"}
dep_dirs = [".", "requirements", "reqs", "ci", "tests", "test", "docs", ".github/workflows", ".circleci"]
def norm(name):
    import re
    return re.sub(r"[-_.]+", "-", name).lower()
def checkout_top():
    d = os.getcwd()
    while not os.path.exists(os.path.join(d, ".git")) and os.path.dirname(d) != d:
        d = os.path.dirname(d)
    return d if os.path.exists(os.path.join(d, ".git")) else os.getcwd()
def declared_words():
    import re
    words, seen = set(), set()
    for top in dict.fromkeys([os.getcwd(), checkout_top()]):
        for rel in dep_dirs:
            try:
                names = sorted(os.listdir(os.path.join(top, rel)))[:500]
            except OSError:
                continue
            for n in names:
                if n not in dep_files and not n.endswith((".toml", ".cfg", ".ini", ".txt", ".in", ".yml", ".yaml")):
                    continue
                p = os.path.realpath(os.path.join(top, rel, n))
                if p in seen or not os.path.isfile(p):
                    continue
                seen.add(p)
                try:
                    with open(p, "rb") as f:
                        text = f.read(1 << 20).decode("utf-8", "replace")
                except OSError:
                    continue
                words.update(norm(w) for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]*", text))
    return words
# async_used says whether a Python file under the working directory, the
# checkout's top or a path on the command line mentions async code ("async",
# "anyio", "event_loop": an async test or fixture, a plugin's name). Without
# such a file the async plugins change nothing but cost ~30 ms per run;
# with one, or past the scan's budget, they load.
def py_files(root):
    if os.path.isfile(root):
        yield root
        return
    skip = {"build", "dist", "node_modules", "venv", "CVS", "_darcs", "__pycache__", "site-packages"}
    for d, subdirs, names in os.walk(root):
        subdirs[:] = [n for n in subdirs if not n.startswith(".") and n not in skip and not n.endswith(".egg")]
        yield from (os.path.join(d, n) for n in names if n.endswith(".py"))
def async_used():
    args = [a.split("::")[0] for a in sys.argv[2:] if not a.startswith("-")]
    roots = dict.fromkeys(os.path.realpath(r) for r in [os.getcwd(), checkout_top()] + [a for a in args if os.path.exists(a)])
    files, size = 0, 0
    for root in roots:
        for p in py_files(root):
            files += 1
            try:
                with open(p, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            size += len(data)
            if b"async" in data or b"anyio" in data or b"event_loop" in data or files > 2000 or size > 16 << 20:
                return True
    return False
hidden = set()
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in hidden:
            raise ModuleNotFoundError("No module named %r (greenlight: a pytest plugin the project does not declare)" % name, name=name)
        return None
hider = Hide()
def top(e):
    return e.value.split(":")[0].split(".")[0].strip()
def declared_plugins(dists, plugins):
    import re
    if os.environ.pop("GREENLIGHT_PYTEST_ALL_PLUGINS", "") == "1":
        return {e.name for d, e in plugins}
    image = [os.path.realpath(p) + os.sep for p in site.getsitepackages([sys.base_prefix])]
    if sys.prefix != sys.base_prefix:
        image = [p for p in image if not p.startswith(os.path.realpath(sys.prefix) + os.sep)]
    def carried(d):
        where = getattr(d, "_path", None)
        return where is not None and any(os.path.realpath(str(where)).startswith(p) for p in image)
    byname = {}
    for d in dists:
        byname.setdefault(norm(getattr(d, "_normalized_name", None) or d.metadata["Name"] or ""), d)
    words = declared_words()
    # The words: an asyncio_mode option under filterwarnings = error would
    # stop pytest at an unknown option without the plugin.
    extra = always if always - words and (any("async" in w or "anyio" in w for w in words) or async_used()) else set()
    want = {n for n, d in byname.items() if n in words or n in extra or not carried(d)}
    queue = list(want)
    while queue:
        d = byname.get(queue.pop())
        for r in (d.requires or []) if d is not None else []:
            if re.search(r";.*\bextra\b", r):
                continue
            m = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", r)
            if m and norm(m.group()) not in want:
                want.add(norm(m.group()))
                queue.append(norm(m.group()))
    names = {e.name for d, e in plugins if not carried(d) or norm(getattr(d, "_normalized_name", None) or d.metadata["Name"] or "") in want}
    left = sorted({e.name for d, e in plugins} - names)
    loaded = {top(e) for d, e in plugins if e.name in names}
    hidden.update({top(e) for d, e in plugins if e.name not in names} - loaded)
    if hidden:
        sys.meta_path.insert(0, hider)
    if left:
        sys.stderr.write("greenlight: pytest plugins the image carries but the project does not declare were not loaded (-p NAME loads one): " + ", ".join(left) + "\n")
        retry_with_every_plugin()
    return names
def retry_with_every_plugin():
    from _pytest.config import argparsing
    usage_error = argparsing.MyOptionParser.error
    def error(self, message):
        if "unrecognized arguments" in message:
            sys.stderr.write("greenlight: pytest did not recognize an option (" + message.splitlines()[0] + "): running again with every plugin the image carries\n")
            sys.stdout.flush()
            sys.stderr.flush()
            os.environ["GREENLIGHT_PYTEST_ALL_PLUGINS"] = "1"
            if globals().get("lcov"):
                os.environ["GREENLIGHT_COVERAGE_LCOV"] = lcov
            os.execv(sys.executable, [sys.executable] + sys.orig_argv[1:])
        usage_error(self, message)
    argparsing.MyOptionParser.error = error
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
    dists = isolated(lambda: list(metadata.distributions()))
    plugins = isolated(lambda: [(d, e) for d in dists for e in d.entry_points if e.group == "pytest11" and not built_here(d)])
    wanted = declared_plugins(dists, plugins)
    def load_setuptools_entrypoints(self, group, name=None):
        count = 0
        for d, e in plugins:
            if e.group != group or name not in (None, e.name) or self.get_plugin(e.name) or self.is_blocked(e.name):
                continue
            if name is None and e.name not in wanted:
                continue
            if name is not None:
                hidden.discard(top(e))
            if hidden and sys.meta_path[0] is not hider:
                sys.meta_path.remove(hider)
                sys.meta_path.insert(0, hider)
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
