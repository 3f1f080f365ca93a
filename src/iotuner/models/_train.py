"""`iotuner train`: compare the model zoo on a summary frame (iotuner.models._compare),
choose one by a fixed rule (SELECTION_RULE, iotuner.models._select), fit it on all the rows
and save it with its calibration (iotuner.models._calibrate) and the figures it was chosen
by.

The choice rests on leave-one-workload-out figures (iotuner.models._evaluate, at most
`max_workload_folds` workloads held out) of the models and both baselines on the same
held-out workloads; with one workload the MAPE of the comparison decides.
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from iotuner._progress import Steps
from iotuner.measurement import System
from iotuner.models._calibrate import calibrate
from iotuner.models._compare import TEST_SIZE, Comparison, compare_models, fit_model, with_baselines
from iotuner.models._evaluate import evaluate_models, model_choices
from iotuner.models._figures import Evaluation
from iotuner.models._saved import TrainedModel, save_model
from iotuner.models._select import SELECTION_RULE, Selection, choose_model, select_model
from iotuner.models._zoo import BASELINE, BASELINES
from iotuner.space import Space

__all__ = ["TrainReport", "train_command"]


@dataclass(frozen=True)
class TrainReport:
    """What train_command did: the comparison, the model chosen and why, where it went."""

    comparison: Comparison
    chosen: str
    reason: str
    path: Path
    metadata: dict[str, Any]
    evaluation: Evaluation | None = None

    @property
    def selection(self) -> Selection:
        """What the choice compared (choose_model on the report's own figures)."""
        return choose_model(self.comparison.scores, self.evaluation)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for `train --json`: the choice, the rule, what the choice compared
        (Selection.to_dict), the MAPE table of both schemes and the figures of the
        evaluation (see iotuner.models._evaluate)."""
        return {
            "chosen": self.chosen,
            "reason": self.reason,
            "rule": SELECTION_RULE,
            "baseline": BASELINE,
            "baselines": list(BASELINES),
            "selection": self.selection.to_dict(),
            "path": str(self.path),
            "target": self.comparison.target,
            "rows": self.comparison.rows,
            "dropped": self.comparison.dropped,
            "group_note": self.comparison.group_note,
            "table": self.comparison.table(),
            "evaluation": self.evaluation.to_dict() if self.evaluation is not None else None,
        }


def train_command(
    frame: pd.DataFrame,
    space: Space | None,
    out_path: Path,
    *,
    target: str = "bw_min",
    seeds: int = 10,
    quick: bool = False,
    models: Sequence[str] | None = None,
    rf_max_depth: int | None = None,
    rf_criterion: str = "squared_error",
    max_workload_folds: int | None = None,
    progress: Steps | None = None,
    system: System | None = None,
) -> TrainReport:
    """`iotuner train`: compare the zoo, choose by SELECTION_RULE, refit the choice on all
    rows and save it in the directory `out_path` (see iotuner.models.load_model).

    `quick` shrinks the zoo and uses at most 3 seeds and 8 held-out workloads (else 20),
    for a demo that trains in seconds. `system`, the system the frame was measured on, is
    kept in the metadata ("system": host, file system, MPI), so that a question about
    another system is known as one (TrainedModel.other_system).
    """
    if quick:
        seeds = min(seeds, 3)
    comparison = compare_models(
        frame,
        space,
        target=target,
        seeds=seeds,
        quick=quick,
        models=models,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
        progress=progress,
    )
    evaluation = _evaluate_for_selection(
        frame,
        space,
        target=target,
        quick=quick,
        models=models,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
        max_folds=max_workload_folds if max_workload_folds is not None else (8 if quick else 20),
        progress=progress,
    )
    chosen, reason = select_model(comparison.scores, evaluation)
    trained = fit_model(
        frame,
        space,
        chosen,
        target=target,
        quick=quick,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
        residuals=comparison.residuals[chosen],
    )
    _add_training_metadata(
        trained,
        chosen,
        frame,
        space,
        comparison,
        evaluation,
        reason,
        target=target,
        quick=quick,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
        system=system,
    )
    save_model(trained, Path(out_path))
    return TrainReport(comparison, chosen, reason, Path(out_path), trained.metadata, evaluation)


def _add_training_metadata(
    trained: TrainedModel,
    chosen: str,
    frame: pd.DataFrame,
    space: Space | None,
    comparison: Comparison,
    evaluation: Evaluation | None,
    reason: str,
    *,
    target: str,
    quick: bool,
    rf_max_depth: int | None,
    rf_criterion: str,
    system: System | None,
) -> None:
    """Keep in the trained model's metadata what a reader of the model needs: its
    calibration, the system, why it was chosen and the figures it was chosen by."""
    # The interval every decision rests on, calibrated on held-out workloads
    # (iotuner.models._calibrate): the chosen model refitted once per fold.
    zoo = model_choices([chosen], quick=quick, rf_max_depth=rf_max_depth, rf_criterion=rf_criterion)
    calibration = calibrate(frame, space, next(c for c in zoo if c.name == chosen), target=target)
    if calibration is not None:
        trained.metadata["calibration"] = calibration.to_dict()
    if system is not None:
        trained.metadata["system"] = asdict(system)
    trained.metadata["selection"] = {"rule": SELECTION_RULE, "reason": reason}
    trained.metadata["evaluation"] = {
        "rows": comparison.rows,
        "dropped": comparison.dropped,
        "seeds": comparison.seeds,
        "test_size": TEST_SIZE,
        "group_by": comparison.group_by,
        "groups_held_out": comparison.groups_held_out,
        "group_note": comparison.group_note,
        "baseline": BASELINE,
        "table": comparison.table(),
        "figures": evaluation.to_dict() if evaluation is not None else None,
    }


def _evaluate_for_selection(
    frame: pd.DataFrame,
    space: Space | None,
    *,
    target: str,
    quick: bool,
    models: Sequence[str] | None,
    rf_max_depth: int | None,
    rf_criterion: str,
    max_folds: int,
    progress: Steps | None,
) -> Evaluation | None:
    """Leave-one-workload-out figures of the models and both baselines (on the same held-out
    workloads: evaluate_models holds out the same folds for every model), or None with one
    workload."""
    evaluation = evaluate_models(
        frame,
        space,
        model_choices(
            with_baselines(models),
            quick=quick,
            rf_max_depth=rf_max_depth,
            rf_criterion=rf_criterion,
        ),
        target=target,
        schemes=("workload", "program"),
        max_folds=max_folds,
        progress=progress,
    )
    return evaluation if evaluation.results else None
