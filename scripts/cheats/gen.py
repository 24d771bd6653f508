#!/usr/bin/env python3
"""gen.py writes the cheat corpus: for every task of tasks.py built by
scripts/swe-tasks.sh, every family recipe of families.py that applies,
as patch files outside this tree.

Usage: gen.py SUITE OUT
  SUITE  OUT/gold of scripts/swe-tasks.sh (SUITE/NAME/{repo,gold.diff,task.yaml})
  OUT    gets OUT/NAME--RECIPE/ per cheat (and NAME--gold/) holding
         1.diff [2.diff] (the patches the provider offers, in order) and
         meta.json; OUT/hidden/NAME.diff per task with hidden tests
         (scripts/cheats/hidden/NAME/, new test files of our own).
Prints one line per cheat and the counts per family."""

import json
import os
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import families  # noqa: E402
from diffs import Patch, RecipeError  # noqa: E402
from tasks import TASKS  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def fail_to_pass(task_yaml):
    """The fail_to_pass ids of a task.yaml written by swe-tasks.sh."""
    ids, on = [], False
    with open(task_yaml) as f:
        for line in f:
            if line.startswith("fail_to_pass:"):
                on = True
            elif on and line.startswith("  - "):
                ids.append(json.loads(line[4:].strip()))
            elif on:
                on = False
    return ids


def hidden_diff(task, repo):
    """The task's hidden tests as one diff of new files, or None."""
    root = os.path.join(HERE, "hidden", task.name)
    if not os.path.isdir(root):
        return None
    p = Patch(repo)
    for d, _, files in sorted(os.walk(root)):
        for fn in sorted(files):
            full = os.path.join(d, fn)
            with open(full) as f:
                p.add(os.path.relpath(full, root), f.read())
    return p.text()


def write(out, cid, meta, rounds):
    d = os.path.join(out, cid)
    os.makedirs(d, exist_ok=True)
    for old in os.listdir(d):
        if re.fullmatch(r"\d+\.diff|meta\.json", old):
            os.unlink(os.path.join(d, old))
    for i, r in enumerate(rounds, 1):
        with open(os.path.join(d, "%d.diff" % i), "w") as f:
            f.write(r)
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    suite, out = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(out, "hidden"), exist_ok=True)
    per_family, tasks, langs, errors = Counter(), set(), Counter(), 0
    for task in TASKS:
        tdir = os.path.join(suite, task.name)
        if not os.path.isdir(tdir):
            print("gen: %s: not in %s (run scripts/swe-tasks.sh)" % (task.name, suite), file=sys.stderr)
            errors += 1
            continue
        repo = os.path.join(tdir, "repo")
        with open(os.path.join(tdir, "gold.diff")) as f:
            gold = f.read()
        f2p = fail_to_pass(os.path.join(tdir, "task.yaml"))
        hidden = hidden_diff(task, repo)
        hidden_path = None
        if hidden:
            hidden_path = os.path.join(out, "hidden", task.name + ".diff")
            with open(hidden_path, "w") as f:
                f.write(hidden)
        base = {"task": task.name, "lang": task.lang, "runner": task.runner,
                "task_dir": os.path.abspath(tdir), "fail_to_pass": f2p,
                "hidden": os.path.abspath(hidden_path) if hidden_path else None}
        write(out, task.name + "--gold", dict(base, id=task.name + "--gold", family=0,
                                              recipe="gold", hard=False, rounds=1), [gold])
        try:
            built = families.build_all(task, repo, gold)
        except RecipeError as e:
            print("gen: %s: %s" % (task.name, e), file=sys.stderr)
            errors += 1
            continue
        for fam, recipe, rounds, hard in built:
            cid = "%s--%s" % (task.name, recipe)
            write(out, cid, dict(base, id=cid, family=fam, recipe=recipe, hard=hard,
                                 rounds=len(rounds)), rounds)
            per_family[fam] += 1
            tasks.add(task.name)
            langs[task.lang] += 1
            print("%s\tfamily %d\t%s" % (cid, fam, task.lang))
    total = sum(per_family.values())
    print("gen: %d cheats over %d tasks (%s); per family: %s" % (
        total, len(tasks), ", ".join("%s %d" % kv for kv in sorted(langs.items())),
        ", ".join("%d: %d" % kv for kv in sorted(per_family.items()))))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
