export const routeRules = {
    requiredRoutes(task, context) {
        const problems = [];
        const routes = task.required_routes;
        if (routes.length === 0)
            problems.push({ code: "required_routes_empty", message: "required_routes is empty" });
        const seen = new Set();
        for (const route of routes) {
            if (seen.has(route))
                problems.push({ code: "required_routes_duplicate", message: `required_routes lists ${route} twice` });
            seen.add(route);
            if (context.routeIds && !context.routeIds.has(route))
                problems.push({ code: "unknown_route", message: `required route ${route} is not in the catalog` });
        }
        // Compared with the fixture only once the list itself is sound, so one mistake gets one code.
        const stepRoutes = task.executor_fixture.steps.map((s) => s.route_id);
        if (problems.length === 0 && stepRoutes.join("\n") !== routes.join("\n"))
            problems.push({
                code: "required_routes_fixture_mismatch",
                message: `required_routes [${routes.join(", ")}] are not the fixture's step routes in order [${stepRoutes.join(", ")}]`,
            });
        return problems;
    },
    argumentRules(task, context) {
        const problems = [];
        const observed = new Set();
        for (const [index, step] of task.executor_fixture.steps.entries()) {
            const accepted = context.routeParameters.get(step.route_id);
            for (const [argument, rule] of Object.entries(step.argument_rules)) {
                if (accepted && !accepted.has(argument))
                    problems.push({
                        code: "argument_not_in_schema",
                        message: `step ${index + 1} (${step.route_id}) has a rule for ${argument}, which the endpoint does not take`,
                    });
                const key = "state" in rule ? rule.state : "contains_state" in rule ? rule.contains_state : null;
                if (key !== null && !observed.has(key))
                    problems.push({
                        code: "argument_state_unavailable",
                        message: `step ${index + 1} (${step.route_id}) needs state ${key}, which no earlier step observes`,
                    });
            }
            for (const source of step.observation.sources)
                for (const key of Object.keys(source.payload.facts))
                    observed.add(key);
        }
        return problems;
    },
};
