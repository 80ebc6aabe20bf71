"""The exact optimum of a C-PLSE instance by integer programming (scipy's milp, HiGHS).

A binary x[c, k] for each empty cell c and value k that L allows there; maximize their sum subject to: one
value per cell; each value at most once per row and column; and the condition's own rows
(`Condition.milp_rows`: boxes for sud, signs for fut, capacities for bs).
"""

from __future__ import annotations

import numpy as np

from dlx_latin.approx.instance import Cell, Instance, State


def optimum(inst: Instance, time_limit: float | None = None) -> dict[Cell, int]:
    """A largest solution (exact unless `time_limit` seconds run out, which raises TimeoutError)."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    n, state = inst.n, State(inst)
    variables = [(c, k) for c in inst.empty for k in range(1, n + 1) if state.can_place(c, k)]
    if not variables:
        return {}
    rows: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    upper: list[float] = []

    def constraint(terms: list[tuple[int, float]], bound: float) -> None:
        if terms:
            for v, a in terms:
                rows.append(len(upper))
                cols.append(v)
                data.append(a)
            upper.append(bound)

    groups: dict[tuple, list[int]] = {}
    for v, ((i, j), k) in enumerate(variables):
        for key in (("cell", i, j), ("row", i, k), ("col", j, k)):
            groups.setdefault(key, []).append(v)
    for members in groups.values():
        constraint([(v, 1.0) for v in members], 1.0)
    for terms, bound in inst.rule.milp_rows(inst, variables, state):
        constraint(terms, bound)
    matrix = coo_matrix((data, (rows, cols)), shape=(len(upper), len(variables))).tocsr()
    options = {} if time_limit is None else {"time_limit": time_limit}
    result = milp(
        c=-np.ones(len(variables)),
        constraints=LinearConstraint(matrix, -np.inf, np.array(upper)),
        integrality=np.ones(len(variables)),
        bounds=Bounds(0, 1),
        options=options,
    )
    if result.status != 0:
        raise TimeoutError(f"the integer program stopped before the optimum: {result.message}")
    return {variables[v][0]: variables[v][1] for v in np.flatnonzero(result.x > 0.5)}
