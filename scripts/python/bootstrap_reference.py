"""Reference implementation of fabench's paired stratified task-cluster bootstrap (Python-RNG mode).

Standard library only. Follows fabench's preregistered bootstrap rule literally: per-task values
(mean over sizes ascending, then trials ascending, of non-null values), paired deltas against FULL,
cells in order of first appearance over code-point-sorted ids, draws with
random.Random(seed).choice(cell_tasks) per slot, replicate = mean over drawn defined values in draw
order, interval = sorted replicates at floor(0.025*(n-1)) and floor(0.975*(n-1)).

    python3 bootstrap_reference.py INPUT.json [--iterations B]

Prints one JSON object {"intervals": {key: {"point", "low", "high", "n"}}}.
"""
import json
import math
import random
import sys


def per_task(values, sizes):
    total, n = 0.0, 0
    for trials in values(sizes):
        for v in trials:
            if v is not None:
                total += v
                n += 1
    return None if n == 0 else total / n


def main():
    path = sys.argv[1]
    iterations = None
    if "--iterations" in sys.argv:
        iterations = int(sys.argv[sys.argv.index("--iterations") + 1])
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    iterations = iterations or data["iterations"]
    tasks = data["tasks"]
    sizes = sorted(data["catalog_sizes"])
    selections = [("pooled", sizes)] + [(str(s), [s]) for s in sizes]
    stats = {}
    for name, chosen in selections:
        levels = {}
        for cond in data["conditions"]:
            for metric in data["metrics"]:
                vals = []
                for t in range(len(tasks)):
                    vals.append(per_task(lambda ss: [data["values"][cond][str(s)][metric][t] for s in ss], chosen))
                levels[(cond, metric)] = vals
                stats[f"{name}|{cond}|{metric}|level"] = vals
        for cond in data["conditions"]:
            if cond == "FULL":
                continue
            for metric in data["metrics"]:
                a, b = levels[(cond, metric)], levels[("FULL", metric)]
                stats[f"{name}|{cond}|{metric}|delta"] = [None if x is None or y is None else x - y for x, y in zip(a, b)]
    order = sorted(range(len(tasks)), key=lambda i: tasks[i]["semantic_task_id"])
    cells, index = [], {}
    for i in order:
        key = (tasks[i]["answer_task_stratum"], tasks[i]["language"])
        if key not in index:
            index[key] = len(cells)
            cells.append([])
        cells[index[key]].append(i)
    rng = random.Random(data["seed"])
    draws = []
    for _ in range(iterations):
        drawn = []
        for cell in cells:
            for _slot in cell:
                drawn.append(rng.choice(cell))
        draws.append(drawn)
    out = {}
    for key, vals in stats.items():
        reps = []
        for drawn in draws:
            total, n = 0.0, 0
            for t in drawn:
                if vals[t] is not None:
                    total += vals[t]
                    n += 1
            if n:
                reps.append(total / n)
        reps.sort()
        defined = [vals[t] for t in order if vals[t] is not None]
        point = None if not defined else sum(defined) / len(defined)
        if reps:
            low, high = reps[math.floor(0.025 * (len(reps) - 1))], reps[math.floor(0.975 * (len(reps) - 1))]
        else:
            low = high = None
        out[key] = {"point": point, "low": low, "high": high, "n": len(reps)}
    print(json.dumps({"intervals": out}))


if __name__ == "__main__":
    main()
