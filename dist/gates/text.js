export function renderGate(g) {
    const lines = [`verdict: ${g.status}${g.complete ? "" : " (incomplete run set: cannot pass)"}`];
    if (!g.prerequisite.satisfied)
        lines.push("blocked by:", ...g.prerequisite.blocking.map((b) => `  ${b.stage}: ${b.reason}`));
    for (const [condition, v] of Object.entries(g.conditions)) {
        lines.push("", `${condition}: ${v.passed ? "passes" : "fails"} on point estimates; ${v.interval_passed ? "passes" : "fails"} with intervals`);
        for (const [name, c] of Object.entries(v.checks)) {
            const num = (x) => (x === null ? "–" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(4));
            const ci = c.ci95 ? ` [${num(c.ci95[0])}, ${num(c.ci95[1])}]` : "";
            lines.push(`  ${c.passed ? "ok  " : "FAIL"} ${name.padEnd(36)} value ${num(c.value).padStart(9)}  FULL ${num(c.full).padStart(9)}  delta/ratio ${num(c.delta).padStart(9)}${ci}  threshold ${c.threshold}`);
        }
    }
    return `${lines.join("\n")}\n`;
}
